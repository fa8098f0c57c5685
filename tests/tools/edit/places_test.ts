import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { describePlaces, endingsNote, placesOf } from "../../../src/tools/edit/places.ts";

Deno.test("placesOf() gives line and column of each span, counting characters, not UTF-16 units", () => {
  const text = "x = 1; y = 1\n😀 = 1\n";
  assertEquals(placesOf(text, [[2, 5], [9, 12], [16, 19]]), [
    { line: 1, column: 3 },
    { line: 1, column: 10 },
    { line: 2, column: 3 }, // "😀" is two UTF-16 units, one character
  ]);
  assertEquals(placesOf("", []), []);
});

Deno.test("placesOf() names each span's line endings only in a file that mixes them", () => {
  assertEquals(placesOf("a\r\nb\na\nb\n", [[0, 4], [5, 8]]), [
    { line: 1, column: 1, endings: "CRLF" },
    { line: 3, column: 1, endings: "LF" },
  ]);
  assertEquals(placesOf("a\r\na\r\n", [[0, 3], [3, 6]]), [{ line: 1, column: 1 }, { line: 2, column: 1 }]);
});

Deno.test("describePlaces() lists lines alone, or line and column when a line holds several", () => {
  assertStrictEquals(describePlaces([{ line: 1, column: 1 }, { line: 3, column: 4 }], 20), "lines 1, 3");
  assertStrictEquals(
    describePlaces([{ line: 1, column: 5 }, { line: 1, column: 12 }, { line: 2, column: 1 }], 20),
    "line 1 col 5, line 1 col 12, line 2 col 1",
  );
  const many = Array.from({ length: 25 }, (_, i) => ({ line: i + 1, column: 1 }));
  assertStrictEquals(describePlaces(many, 3), "lines 1, 2, 3, and 22 more");
  assertStrictEquals(
    describePlaces([{ line: 1, column: 1, endings: "CRLF" }, { line: 4, column: 1, endings: "LF" }], 20),
    "lines 1 (CRLF), 4 (LF)",
  );
});

Deno.test("endingsNote() speaks only when the copies differ in their endings", () => {
  assertStrictEquals(endingsNote([{ line: 1, column: 1 }, { line: 2, column: 1 }]), "");
  assertStrictEquals(
    endingsNote([{ line: 1, column: 1, endings: "LF" }, { line: 2, column: 1, endings: "LF" }]),
    "",
  );
  assertStrictEquals(
    endingsNote([{ line: 1, column: 1, endings: "CRLF" }, { line: 4, column: 1, endings: "LF" }]).includes(
      "mixes CRLF and LF",
    ),
    true,
  );
});
