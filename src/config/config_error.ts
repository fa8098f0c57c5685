/** The error of a configuration that cannot work, for every module that reads or checks one. */

/** A configuration that cannot work; `message` is one line that says what to set. Exit code 2. */
export class ConfigError extends Error {
  /** The process exit code for a configuration error. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
