/** The part of highlight.js that highlight.ts uses. */
export interface HighlightJs {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/** Loads highlight.js with its common languages. */
export function loadHighlightJs(): Promise<HighlightJs>;
