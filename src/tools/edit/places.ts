/** Where the matches of an ambiguous edit are, told apart well enough for the model to pick one. */

import { mixesEndings, spanEndings } from "./line_endings.ts";

/** One match: 1-based line and column (in characters) of its start; in a file of mixed endings, its own. */
export interface Place {
  line: number;
  column: number;
  /** The endings the match spans ("CRLF", "LF", "CRLF+LF"); set only in a file with mixed endings. */
  endings?: string;
}

/** Places of ascending spans `[start, end)` of `text`, in one pass over it. */
export function placesOf(text: string, spans: [number, number][]): Place[] {
  const mixed = mixesEndings(text);
  const places: Place[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  let column = 1;
  let nextBreak = text.indexOf("\n");
  for (const [start, end] of spans) {
    while (nextBreak !== -1 && nextBreak < start) {
      line++;
      lineStart = nextBreak + 1;
      nextBreak = text.indexOf("\n", lineStart);
    }
    if (counted < lineStart) [counted, column] = [lineStart, 1];
    // Characters, not UTF-16 units: an emoji earlier on the line counts once.
    for (; counted < start; counted++) {
      const code = text.charCodeAt(counted);
      if (code < 0xdc00 || code > 0xdfff) column++;
    }
    const place: Place = { line, column };
    if (mixed) {
      const endings = spanEndings(text, start, end);
      if (endings !== "") place.endings = endings;
    }
    places.push(place);
  }
  return places;
}

/**
 * The places in words: "lines 1, 3, 5" when each is on its own line, "line 1 col 5, line 1 col 12" when a
 * line holds several; each with its endings when it has any; at most `limit`, then how many more.
 */
export function describePlaces(places: Place[], limit: number): string {
  const shared = new Set(places.map((place) => place.line)).size < places.length;
  const shown = places.slice(0, limit).map((place) => {
    const where = shared ? `line ${place.line} col ${place.column}` : String(place.line);
    return place.endings === undefined ? where : `${where} (${place.endings})`;
  });
  const more = places.length > limit ? `, and ${places.length - limit} more` : "";
  return `${shared ? "" : places.length === 1 ? "line " : "lines "}${shown.join(", ")}${more}`;
}

/** A sentence for an ambiguity between copies that differ only in line endings; "" otherwise. */
export function endingsNote(places: Place[]): string {
  const kinds = new Set(places.map((place) => place.endings).filter((kind) => kind !== undefined));
  if (kinds.size < 2) return "";
  return " The file mixes CRLF and LF line endings, which read_file shows alike, so copies that differ " +
    "only in their line endings count as the same text.";
}
