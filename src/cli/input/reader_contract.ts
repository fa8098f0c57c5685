/** What every prompt reader promises the REPL: one prompt read at a time, null when the user leaves. */

/** What the REPL can hook into while a prompt is read. */
export interface ReadHooks {
  /** Shift+Tab: cycle something (the approval mode) and return the prompt to show from now on. */
  cycle?: () => string;
  /** Ctrl-C on an empty line ends the read at once (a sub-prompt), instead of asking for a second one. */
  interruptEnds?: boolean;
}

/** Reads prompts; `read` resolves null when the user wants to leave (Ctrl-D, Ctrl-C twice, end of input). */
export interface LineReader {
  read(prompt: string, hooks?: ReadHooks): Promise<string | null>;
  close(): void;
}
