/** The model-facing sentences of edit_file's refusals: where the text is not, or is too often, and why. */

import { cutLine } from "../_truncate.ts";
import { describeLayer, type EditOutcome, stripLineNumbers } from "./match.ts";
import { bareCrCount } from "./line_endings.ts";
import { describePlaces, endingsNote } from "./places.ts";
import { mostSimilarRegion } from "./similar.ts";

/** How many match locations an ambiguity error lists before summarising. */
const MAX_LISTED_MATCHES = 20;
/** Lines of the most similar region shown when old_text is not found. */
const MAX_SHOWN_LINES = 12;
/** Below this bigram similarity the "most similar" region is noise, and is not shown. */
const MIN_SIMILARITY = 0.5;

/** The part of an edit a refusal speaks of. */
export interface RefusedEdit {
  old_text: string;
  replace_all?: boolean;
}

/** A line as a refusal shows it: a CR inside it written as \r, never sent raw. */
function shownLine(line: string): string {
  return cutLine(line.replace(/\r$/, ""), 500).replaceAll("\r", "\\r");
}

/** The part of `text` most like `needle`, numbered as read_file numbers lines; "" when nothing is close. */
function similarRegion(text: string, needle: string): string {
  const region = mostSimilarRegion(text, stripLineNumbers(needle, "")?.[0] ?? needle);
  if (region === null || region.score < MIN_SIMILARITY) return "";
  const last = Math.min(region.last, region.first + MAX_SHOWN_LINES - 1);
  const lines = text.split("\n").slice(region.first - 1, last);
  const rows = lines.map((line, i) => `${String(region.first + i).padStart(6)}\t${shownLine(line)}`);
  const more = region.last > last ? `\n(${region.last - last} more lines of the region not shown)` : "";
  const where = `The most similar text in the file is at lines ${region.first}–${region.last}:`;
  return `\n${where}\n${rows.join("\n")}${more}`;
}

/**
 * Why old_text may not be found in a file with bare CRs: a file whose line breaks are CRs reads as one long
 * line, so it is named as such, with the way out; a few stray CRs are named after the usual advice.
 */
function notFoundText(text: string, edit: RefusedEdit, rel: string): string {
  const exactOnly = edit.replace_all ? " (with replace_all, only exact matches count)" : "";
  const head = `old_text was not found in ${rel}${exactOnly}.`;
  const bare = bareCrCount(text);
  const lineFeeds = text.split("\n").length - 1;
  if (bare > 0 && bare >= lineFeeds) {
    return `${head} ${rel} breaks its lines with bare CR characters (carriage returns with no line feed ` +
      `after them, as old Mac files do: ${bare} of them), which read_file and edit_file do not take as line ` +
      `breaks, so its lines cannot be matched one by one. Convert its line breaks to LF first (for example ` +
      `with execute_command: tr '\\r' '\\n'), or rewrite it whole with write_file.`;
  }
  const stray = bare === 0 ? "" : ` Note: ${rel} has ${bare} bare CR character${bare === 1 ? "" : "s"} ` +
    `(a carriage return with no line feed after it, written \\r in this message) inside its lines: old_text must ` +
    `hold each as the character itself, or stop short of it.`;
  return `${head} It must match exactly, including whitespace and indentation: read the file again with ` +
    `read_file and copy the text from it.${stray}` + similarRegion(text, edit.old_text);
}

/** The model-facing sentence for an edit that found no single place to apply. */
export function failureText(
  outcome: Exclude<EditOutcome, { kind: "edited" }>,
  text: string,
  edit: RefusedEdit,
  rel: string,
): string {
  switch (outcome.kind) {
    case "not_found": {
      if (text === "") {
        return `${rel} is empty, so old_text cannot be found: use write_file to give it content.`;
      }
      return notFoundText(text, edit, rel);
    }
    case "ambiguous": {
      const { places } = outcome;
      const how = describeLayer(outcome.layer);
      const listed = describePlaces(places, MAX_LISTED_MATCHES);
      // replace_all takes exact text only, so it is no way out of an ambiguity found by normalising.
      const orAll = outcome.layer === "exact" && !edit.replace_all ? ", or set replace_all: true" : "";
      return `old_text occurs ${places.length} times in ${rel} (starting on ${listed}` +
        `${how === "" ? "" : `; ${how}`}).${endingsNote(places)} Add surrounding context to old_text so it ` +
        `matches exactly once${orAll}.`;
    }
    case "splits_character": {
      const how = describeLayer(outcome.layer);
      const expanded = outcome.character.normalize("NFKC");
      return `old_text (${how}) would start or end inside "${outcome.character}" on line ${outcome.line}, one ` +
        `character that normalising expands to "${expanded}": the edit cannot cut it in half. Include the ` +
        `whole character in old_text, copied from the file.`;
    }
  }
}
