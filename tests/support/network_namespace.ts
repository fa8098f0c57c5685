/**
 * Runs a command with no network at all: in a new network namespace (Linux), where only the loopback
 * interface exists, brought up so servers the command starts on 127.0.0.1 are reachable and nothing else is.
 */

/** A way into a fresh network namespace: `wrap` turns a command and its whole environment into an argv. */
export interface NetworkNamespace {
  /** How the namespace is made (for messages): `unshare -rn`, `unshare -n` or `sudo -n unshare -n`. */
  how: string;
  wrap(command: string[], env: Record<string, string>): string[];
}

const UP = "PATH=/usr/sbin:/sbin:/usr/bin:/bin ip link set lo up";

/** The environment spelled out (`env -i K=V… command`): sudo and unshare pass no other. */
function explicit(command: string[], env: Record<string, string>): string[] {
  return ["env", "-i", ...Object.entries(env).map(([key, value]) => `${key}=${value}`), ...command];
}

/** The ways tried, in order: as root a plain one; otherwise a user namespace, then passwordless sudo. */
function candidates(): NetworkNamespace[] {
  const shell = (prefix: string[], how: string, drop = ""): NetworkNamespace => ({
    how,
    wrap: (
      command,
      env,
    ) => [...prefix, "sh", "-c", `${UP} && exec ${drop}"$@"`, "sh", ...explicit(command, env)],
  });
  const uid = Deno.uid?.() ?? 0;
  const gid = Deno.gid?.() ?? 0;
  const user = shell(["unshare", "-rn"], "unshare -rn");
  if (uid === 0) return [shell(["unshare", "-n"], "unshare -n"), user];
  // CI machines that forbid unprivileged user namespaces often allow sudo; the command runs as us again.
  const drop = `setpriv --reuid=${uid} --regid=${gid} --clear-groups `;
  return [user, shell(["sudo", "-n", "unshare", "-n"], "sudo -n unshare -n", drop)];
}

/**
 * The first way that works here (a probe checks that loopback comes up and that nothing else is reachable),
 * or why none does: not Linux, no `unshare`, or namespaces refused (each way's error said).
 */
export async function networkNamespace(): Promise<NetworkNamespace | { why: string }> {
  if (Deno.build.os !== "linux") {
    return { why: `network namespaces are Linux only (this is ${Deno.build.os})` };
  }
  const errors: string[] = [];
  for (const way of candidates()) {
    const probe = way.wrap(["sh", "-c", "ip -o link show up | grep -v ' lo:' | wc -l"], {
      PATH: "/usr/sbin:/sbin:/usr/bin:/bin",
    });
    const said = await run(probe);
    if (said.ok && said.stdout.trim() === "0") return way;
    errors.push(`${way.how}: ${said.stderr.trim().split("\n")[0] || "failed"}`);
  }
  return { why: `no network namespace can be made here (${errors.join("; ")})` };
}

/** Runs `argv`; a program that cannot be started (not installed) is a failure with its reason as stderr. */
async function run(argv: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const output = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
      .output();
    const decoder = new TextDecoder();
    return {
      ok: output.success,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } catch (error) {
    return { ok: false, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
  }
}
