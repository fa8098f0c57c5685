/** The REPL's nudges, set up for its terminal: focus reporting on, the settings read, the hooks joined. */
import type { AgentSession } from "../../agent/agent_session.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { trackFocus } from "./focus.ts";
import { notifySettings } from "./notify_settings.ts";
import { Nudger } from "./nudge.ts";

/** A nudger for `session` on this process's terminal; `stop()` turns focus reporting off (at exit). */
export function replNudges(
  session: AgentSession,
  options: { command?: string; isTerminal: boolean },
): { nudger: Nudger; stop(): void } {
  const write = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
  };
  const warn = (message: string) => console.error(`tern: ${terminalSafe(message)}`);
  const { settings, warnings } = notifySettings(Deno.env.toObject(), options);
  for (const warning of warnings) warn(warning);
  // Focus is asked for only on a terminal that reads it, and only when a nudge would use it: with every
  // channel off (TERN_NOTIFY=off, NO_COLOR, TERM=dumb) and no command, tern writes no escape at all.
  const wanted = settings.channels.length > 0 ||
    (settings.command !== undefined && Deno.env.get("TERM") !== "dumb");
  const focus = wanted && options.isTerminal && Deno.stdin.isTerminal() ? trackFocus(write) : undefined;
  const nudger = new Nudger(settings, {
    focus: focus?.tracker,
    write,
    hooks: (kind, message) => session.notify(kind, message),
    warn,
    root: session.root,
  });
  return { nudger, stop: () => focus?.stop() };
}
