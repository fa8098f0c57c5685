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

Deno.test("findIndented() refuses indentation that differs within the block", () => {
  assertEquals(findIndented(file, ["if a:", "b()"]), []);
  assertEquals(findIndented(file, ["if a:", "        b()"]), []);
  // Tabs inside the block against spaces inside old_text: the block's own indentation differs.
  assertEquals(findIndented(["\tif a:", "\t\tb()"], ["    if a:", "        b()"]), []);
  assertEquals(findIndented(file, ["", "  "]), []);
});

Deno.test("findIndented() finds a block whose common indentation is a tab where old_text has spaces", () => {
  assertEquals(findIndented(["\tlog(1);"], ["  log(1);"]), [{
    first: 0,
    count: 1,
    shift: { from: "  ", to: "\t" },
  }]);
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

Deno.test("reindent() moves lines from spaces to a tab only when each starts with the spaces", () => {
  assertStrictEquals(reindent("  log(2);\n    log(3);", { from: "  ", to: "\t" }), "\tlog(2);\n\t  log(3);");
  assertStrictEquals(reindent("  log(2);\nend();", { from: "  ", to: "\t" }), null);
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
  assertStrictEquals(
    describeShift({ from: "  ", to: "\t" }),
    "new_text re-indented: 2 spaces at the start of each line made 1 tab",
  );
});
