import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { describeShift, findIndented, reindent } from "../../../src/tools/edit/indentation.ts";

const file = ["def f():", "    if a:", "        b()", "", "        c()", "    return"];

Deno.test("findIndented() finds a block that differs only by one indentation offset", () => {
  assertEquals(findIndented(file, ["if a:", "    b()"]), [{
    first: 1,
    count: 2,
    shift: { from: "", to: "    " },
  }]);
  assertEquals(findIndented(file, ["      if a:", "          b()"]), [
    { first: 1, count: 2, shift: { from: "      ", to: "    " } },
  ]);
  // A blank line matches a blank line; the lines around it keep their relative indentation.
  assertEquals(findIndented(file, ["b()", "", "c()"]), [{
    first: 2,
    count: 3,
    shift: { from: "", to: "        " },
  }]);
});

Deno.test("findIndented() refuses relative indentation that differs, and spaces against tabs", () => {
  assertEquals(findIndented(file, ["if a:", "b()"]), []);
  assertEquals(findIndented(file, ["if a:", "        b()"]), []);
  assertEquals(findIndented(["\tif a:", "\t\tb()"], ["    if a:", "        b()"]), []);
  assertEquals(findIndented(file, ["", "  "]), []);
});

Deno.test("findIndented() matches whole lines only and lists every block", () => {
  assertEquals(findIndented(["  x = f(a)"], ["f(a)"]), []);
  const twice = findIndented(["  a", "  b", "    a", "    b"], ["a", "b"]);
  assertEquals(twice.map((block) => block.first), [0, 2]);
});

Deno.test("reindent() moves new_text by the offset, lines indented less than old_text included", () => {
  assertStrictEquals(
    reindent("if a:\n    c()\n\nd()", { from: "", to: "    " }),
    "    if a:\n        c()\n\n    d()",
  );
  assertStrictEquals(reindent("      x\n    y\n  z", { from: "      ", to: "  " }), "  x\ny\nz");
  assertStrictEquals(reindent("\tx\ny", { from: "\t", to: "\t\t" }), "\t\tx\n\ty");
});

Deno.test("describeShift() says what was added or removed", () => {
  assertStrictEquals(
    describeShift({ from: "", to: "    " }),
    "new_text re-indented: 4 spaces added to each line",
  );
  assertStrictEquals(
    describeShift({ from: "\t\t", to: "\t" }),
    "new_text re-indented: 1 tab removed from each line",
  );
  assertStrictEquals(
    describeShift({ from: "", to: "\t  " }),
    "new_text re-indented: 3 whitespace characters added to each line",
  );
});
