/**
 * The project trust question on the terminal (asked once per project, before the REPL starts).
 */
import { terminalSafe } from "../render/terminal_safe.ts";
import { npmPackage } from "../../npm.ts";

/**
 * Shows what the project supplies (every name, command and value through the terminal sanitiser, so an
 * escape code in a file cannot redraw the question) and asks whether to trust it; Ctrl-C is a no.
 */
export async function askProjectTrustOnTerminal(lines: string[]): Promise<boolean> {
  const { confirm } = await npmPackage("@inquirer/prompts");
  console.error("This project supplies things tern only uses once you trust it:");
  for (const line of lines) console.error(`  ${terminalSafe(line)}`);
  try {
    return await confirm({ message: "Trust this project (remembered for this directory)?", default: false });
  } catch {
    return false; // Ctrl-C at the question: no
  }
}
