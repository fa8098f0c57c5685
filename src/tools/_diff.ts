/** The diff package for the edit tools (src/text_diff.ts), loaded before their first diff. */
import { loadDiff } from "../text_diff.ts";
import { FatalToolError } from "./tool.ts";

/** Loads the package; one that cannot be loaded ends the task in one line: nothing the model could fix. */
export async function needDiff(): Promise<void> {
  await loadDiff().catch((error) => {
    throw new FatalToolError((error as Error).message, { cause: error });
  });
}
