/**
 * Commands that run another command given as their arguments (`env`, `nice`, `timeout`, `strace`, `sudo`,
 * `xargs`, ...), with the options each takes a value for, so the permission rules find the command word
 * behind them: `strace -o log rm f` runs `rm`, not `log`.
 */
import type { Word } from "./shell_words.ts";

/** How a wrapper's own options and operands are written before the command it runs. */
export interface WrapperSpec {
  /** Short options that take a value (`-o file` or `-ofile`). */
  short?: string;
  /** Long options that take a value when written apart (`--output file`; `--output=file` always does). */
  long?: string[];
  /** Operands before the command: timeout's duration, chroot's new root, flock's lock file. */
  operands?: number;
}

/** The wrappers known by name. */
export const WRAPPERS: Record<string, WrapperSpec> = {
  command: {},
  builtin: {},
  exec: { short: "a" },
  nohup: {},
  setsid: {},
  env: { short: "uCS", long: ["unset", "chdir", "split-string"] },
  nice: { short: "n", long: ["adjustment"] },
  ionice: { short: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  chrt: { operands: 1 },
  taskset: { operands: 1 },
  timeout: { short: "sk", long: ["signal", "kill-after"], operands: 1 },
  stdbuf: { short: "ioe", long: ["input", "output", "error"] },
  strace: { short: "abeEIoOpPsSuUX", long: ["output", "trace", "signal", "status", "string-limit", "user"] },
  ltrace: { short: "aeEnoOpsuxAlLDF", long: ["output", "library"] },
  time: { short: "fo", long: ["format", "output"] },
  sudo: {
    short: "ughpCDRTUrt",
    long: ["user", "group", "host", "prompt", "close-from", "chdir", "chroot", "other-user", "role", "type"],
  },
  doas: { short: "uC" },
  su: { short: "cgGsw", long: ["command", "session-command", "group", "supp-group", "shell"] },
  runuser: { short: "cgGsuw", long: ["command", "session-command", "group", "supp-group", "shell", "user"] },
  chroot: { long: ["userspec", "groups"], operands: 1 },
  unshare: { short: "SGRw" },
  nsenter: { short: "tSGrw", long: ["target"] },
  flock: { short: "wEc", long: ["timeout", "conflict-exit-code", "command"], operands: 1 },
  busybox: {},
  toybox: {},
  fakeroot: { short: "lsi", long: ["lib", "faked"] },
  faketime: { short: "f", operands: 1 },
  eatmydata: {},
  unbuffer: {},
  catchsegv: {},
  cgexec: { short: "g" },
  prlimit: {},
  setpriv: {},
  torsocks: { short: "uPa" },
  proxychains: { short: "f" },
  proxychains4: { short: "f" },
  "dbus-run-session": {},
  watch: { short: "n", long: ["interval"] },
  xargs: {
    short: "adEILnPs",
    long: ["arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars"],
  },
  script: { short: "cEIOBTmo", long: ["command", "echo", "log-in", "log-out", "log-io", "log-timing"] },
};

/** A wrapper's options read off its arguments: the values given, the flags set, and the command after. */
export interface ReadOptions {
  /** Values by option, short letter or long name (`c`, `split-string`). */
  values: Record<string, string[]>;
  /** Short flags without a value, as one string of letters; long ones by name. */
  flags: string;
  longFlags: string[];
  /** The words after the options and operands: the command it runs. */
  rest: Word[];
}

/** Reads `words` (after the wrapper's name) as the wrapper's options and operands, up to its command. */
export function readOptions(words: Word[], spec: WrapperSpec): ReadOptions {
  const read: ReadOptions = { values: {}, flags: "", longFlags: [], rest: [] };
  const keep = (name: string, value: string | undefined) => (read.values[name] ??= []).push(value ?? "");
  let operands = spec.operands ?? 0;
  let i = 0;
  while (i < words.length) {
    const text = words[i].text;
    if (text === "--") {
      i++;
      i += Math.min(operands, words.length - i);
      break;
    }
    if (text.startsWith("--") && text.length > 2) {
      const [name, ...value] = text.slice(2).split("=");
      if (value.length > 0) keep(name, value.join("="));
      else if (spec.long?.includes(name)) keep(name, words[++i]?.text);
      else read.longFlags.push(name);
    } else if (text.startsWith("-") && text.length > 1) {
      for (let j = 1; j < text.length; j++) {
        if (!spec.short?.includes(text[j])) {
          read.flags += text[j];
          continue;
        }
        keep(text[j], j + 1 < text.length ? text.slice(j + 1) : words[++i]?.text);
        break;
      }
    } else if (operands > 0) {
      operands--;
    } else break;
    i++;
  }
  read.rest = words.slice(i);
  return read;
}
