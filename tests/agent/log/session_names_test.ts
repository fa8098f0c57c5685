import { assertEquals } from "../../support/assert.ts";
import { checkedName, findSession } from "../../../src/agent/log/session_names.ts";

Deno.test("checkedName() keeps a name on one line and refuses what tern -r would mistake or a terminal show", () => {
  assertEquals(checkedName("  login \n fix "), { name: "login fix" });
  assertEquals("problem" in checkedName(""), true);
  assertEquals("problem" in checkedName("a\x1b]0;title\x07"), true);
  assertEquals("problem" in checkedName("x".repeat(81)), true);
  assertEquals("problem" in checkedName("3"), true);
  assertEquals("problem" in checkedName("20261130-180005-a1b2"), true);
  assertEquals("problem" in checkedName(42), true);
});

const SESSIONS = [
  { id: "20261201-100000-aaaa", name: "login fix" },
  { id: "20261201-090000-bbbb" },
  { id: "20261130-090000-cccc", name: "Login Fix" },
];

Deno.test("findSession() takes a name first (the newest, any case), then a list number, an id, a prefix", () => {
  assertEquals(findSession(SESSIONS, "LOGIN FIX"), { id: "20261201-100000-aaaa" });
  assertEquals(findSession(SESSIONS, "2"), { id: "20261201-090000-bbbb" });
  assertEquals(findSession(SESSIONS, "20261130-090000-cccc"), { id: "20261130-090000-cccc" });
  assertEquals(findSession(SESSIONS, "20261130"), { id: "20261130-090000-cccc" });
});

Deno.test("findSession() names an ambiguous prefix, and leaves an unknown id to the loader", () => {
  assertEquals(findSession(SESSIONS, "20261201"), {
    problem: "'20261201' starts 2 session ids (20261201-100000-aaaa, 20261201-090000-bbbb); type more of one",
  });
  assertEquals(findSession(SESSIONS, "20991231-000000-ffff"), { id: "20991231-000000-ffff" });
  assertEquals(findSession(SESSIONS, "no such name"), {
    problem: "no session named or numbered 'no such name' in this project; tern sessions lists them",
  });
});
