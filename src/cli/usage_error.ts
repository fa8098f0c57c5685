/** Bad usage: the caller prints `tern: <message>` and a hint to run `tern --help`, then exits 2. */
export class UsageError extends Error {
  /** The process exit code for bad usage. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
