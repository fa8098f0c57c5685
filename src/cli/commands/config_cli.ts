/**
 * `tern config sign`: makes a hand-edited `.tern/local/settings.json` count again. The file is sealed by
 * tern (agent/own_settings.ts), so an edit, yours or a `git pull`'s, makes it apply to nothing; this shows
 * every hook, rule and passed variable it would grant and seals it once you say yes (or pass `--yes`).
 */
import {
  describeOwnSettings,
  pendingOwnSettings,
  readOwnSettings,
  writeOwnSettings,
} from "../../agent/state/own_settings.ts";
import { OWN_SETTINGS_PATH } from "../../config/project_settings.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { npmPackage } from "../../npm.ts";

const USAGE = "usage: tern config sign [--yes]   (seal .tern/local/settings.json after editing it by hand)";

/** How `tern config sign` asks: on the terminal unless a test says otherwise. */
export interface ConfigAsk {
  ask?: (lines: string[]) => Promise<boolean>;
  terminal?: boolean;
}

/** Runs `tern config …` in `root`; returns the exit code (2 for bad usage or nothing to sign). */
export async function runConfigCli(
  root: string,
  args: string[],
  print: (text: string) => number,
  options: ConfigAsk = {},
): Promise<number> {
  const { ask = askOnTerminal, terminal = Deno.stdin.isTerminal() } = options;
  const [command, ...rest] = args;
  if (command !== "sign" || rest.some((arg) => arg !== "--yes")) {
    console.error(`tern: ${USAGE}`);
    return 2;
  }
  const pending = pendingOwnSettings(root);
  if (pending === undefined) {
    console.error(`tern: there is no ${OWN_SETTINGS_PATH} in this project to sign`);
    return 2;
  }
  if ("error" in pending) {
    console.error(`tern: ${terminalSafe(pending.error)}; nothing signed`);
    return 2;
  }
  if (readOwnSettings(root).settings !== undefined) return print(`${OWN_SETTINGS_PATH} is already signed`);
  const lines = describeOwnSettings(pending.settings);
  for (const warning of pending.settings.warnings) lines.push(`warning: ${warning}`);
  if (lines.length === 0) lines.push("(no hooks, rules or MCP settings)");
  if (!rest.includes("--yes")) {
    if (!terminal) {
      console.error(`tern: signing ${OWN_SETTINGS_PATH} asks on a terminal; pass --yes to sign it unasked`);
      return 2;
    }
    if (!await ask(lines)) return print("nothing signed");
  }
  writeOwnSettings(root, pending.data);
  return print(`signed ${OWN_SETTINGS_PATH}: it applies from the next start`);
}

/** Shows what the file grants (through the terminal sanitiser) and asks; Ctrl-C is a no. */
async function askOnTerminal(lines: string[]): Promise<boolean> {
  const { confirm } = await npmPackage("@inquirer/prompts");
  console.error(`${OWN_SETTINGS_PATH} was changed outside tern. Signed, it grants:`);
  for (const line of lines) console.error(`  ${terminalSafe(line)}`);
  console.error("If you did not edit it yourself, a git pull or checkout may have written it: say no.");
  try {
    return await confirm({ message: "Sign it as your own settings for this directory?", default: false });
  } catch {
    return false;
  }
}
