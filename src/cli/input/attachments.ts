/**
 * `@path` in a prompt attaches the file: read through the path guard (inside the root, no .env, no
 * special files, UTF-8 only) and appended to the task, so the model has it without a read_file call. An
 * image (`@screenshot.png`: PNG, JPEG, GIF or WebP, at most 5 MB) goes with the prompt as an image when the
 * model reads images.
 */
import { readTextFile } from "../../fs/path_guard.ts";
import { describeImage, isImageName, readImageFile } from "../../fs/image_file.ts";
import type { ImagePart } from "../../llm/types.ts";

/** Files larger than this are not attached (the model can page them with read_file). */
export const MAX_ATTACHMENT_BYTES = 256 * 1024;

/** The task to send, its images, and one line per mention for the screen ("attached src/a.ts (120 lines)"). */
export interface Attached {
  task: string;
  notes: string[];
  /** The images mentioned, in order (none when the model reads text only). */
  images: ImagePart[];
}

/** Who reads the prompt: whether the model reads images, and its name for the note when it does not. */
export interface Reader {
  images: boolean;
  model: string;
}

/**
 * Reads every `@path` mention of `text` under `root`; a mention that is not a readable file stays text. An
 * image is attached only when `reader` reads images (default: a text-only reader).
 */
export async function attachMentions(
  text: string,
  root: string,
  reader: Reader = { images: false, model: "the model" },
): Promise<Attached> {
  const mentions = [...new Set([...text.matchAll(/(?:^|\s)@([^\s@]+)/g)].map((match) => match[1]))];
  const blocks: string[] = [];
  const notes: string[] = [];
  const images: ImagePart[] = [];
  for (const mention of mentions) {
    const path = mention.replace(/[.,;:!?)]+$/, ""); // "see @src/a.ts." ends a sentence
    if (isImageName(path)) {
      notes.push(await attachImage(root, path, reader, images));
      continue;
    }
    try {
      const file = await readTextFile(root, path);
      if (file.bytes > MAX_ATTACHMENT_BYTES) {
        notes.push(`not attached ${file.rel}: ${file.bytes} bytes is over 256 KB (the model can read it)`);
        continue;
      }
      const lines = file.text === "" ? 0 : file.text.split("\n").length - (file.text.endsWith("\n") ? 1 : 0);
      blocks.push(
        `<attached_file path="${file.rel}">\n${file.text}${
          file.text.endsWith("\n") ? "" : "\n"
        }</attached_file>`,
      );
      notes.push(`attached ${file.rel} (${lines} line${lines === 1 ? "" : "s"})`);
    } catch (error) {
      // Not a file (a directory, a mention of a person, a refused path): say why when it looked like a path.
      if (path.includes("/") || path.includes(".")) {
        notes.push(`not attached @${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  const task = blocks.length === 0 ? text : `${text}\n\n${blocks.join("\n\n")}`;
  return { task, notes, images };
}

/** A prompt as the user typed it: the `<attached_file>` blocks `attachMentions` appended taken off. */
export function typedText(task: string): string {
  const at = task.search(/\n\n<attached_file path="/);
  return at < 0 ? task : task.slice(0, at);
}

/** Adds the image at `path` to `images` when the reader reads images; the note for the screen either way. */
async function attachImage(root: string, path: string, reader: Reader, images: ImagePart[]): Promise<string> {
  if (!reader.images) {
    return `not attached @${path}: ${reader.model} reads text only (TERN_IMAGES=on says it reads images)`;
  }
  try {
    const image = await readImageFile(root, path);
    images.push({ mediaType: image.mediaType, data: image.data, name: image.rel });
    return `attached ${image.rel} (${describeImage(image)})`;
  } catch (error) {
    return `not attached @${path}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
