/** Drives listenForCancel on a real terminal for keys_test.ts: prints each cancel and takes turns on stdin. */
import process from "node:process";
import { createInterface } from "node:readline";
import { confirm } from "@inquirer/prompts";
import { listenForCancel } from "../../../src/cli/input/keys.ts";

/** The terminal's line discipline after stop(), as `stty -a` reports it. */
async function ttyMode(): Promise<string> {
  const out = await new Deno.Command("stty", { args: ["-a"], stdin: "inherit", stdout: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const on = (flag: string) => new RegExp(`(^|\\s)${flag}(\\s|$)`).test(text);
  return on("icanon") && on("echo") && on("isig") ? "cooked" : "still raw";
}

function readLine(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    rl.on("line", (line) => {
      rl.close();
      resolve(line);
    });
    rl.setPrompt(prompt);
    rl.prompt();
  });
}

let cancels = 0;
const listener = listenForCancel(async (key) => {
  cancels++;
  console.log(`cancel ${cancels}: ${key}`);
  if (cancels === 2) {
    listener.pause();
    console.log(`answer: ${await confirm({ message: "Proceed?", default: false })}`);
    listener.resume();
    console.log("listening again");
  } else if (cancels === 3) {
    listener.stop();
    console.log(`stopped: ${await ttyMode()}`);
    console.log(`line: ${await readLine("next> ")}`);
  }
});
console.log("listening");
