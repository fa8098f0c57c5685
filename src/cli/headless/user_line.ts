/**
 * A user line of `--input-format stream-json`, in tern's shape (`{"type":"user","text":"..."}`) or in the
 * shape Claude Code's SDK writes (`{"type":"user","message":{"role":"user","content":...}}`, the content a
 * string or a list of `text` and base64 `image` blocks). Anything else is refused with what to send.
 */
import type { ImageMediaType, ImagePart } from "../../llm/types.ts";
import { MAX_IMAGE_BYTES } from "../../fs/image_file.ts";

/** One user message from stdin: its text, and the images sent with it. */
export interface StreamMessage {
  text: string;
  images?: ImagePart[];
}

const MEDIA_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** Images one message may carry at most. */
const MAX_IMAGES = 20;

/** The message of a `"type":"user"` line, or the problem with it (one line, naming what to send). */
export function userLine(line: Record<string, unknown>): StreamMessage | string {
  if (line.message === undefined) {
    if (typeof line.text !== "string" || line.text.trim() === "") {
      return 'a user message needs a non-empty "text" string (or "message": {"role": "user", "content": ...})';
    }
    return { text: line.text };
  }
  const message = line.message as Record<string, unknown> | null;
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return '"message" must be an object: {"role": "user", "content": "..."}';
  }
  if (message.role !== undefined && message.role !== "user") {
    return `"message.role" must be "user" (got ${JSON.stringify(message.role)})`;
  }
  return contentMessage(message.content);
}

/** `content` as a string, or a list of text and image blocks. */
function contentMessage(content: unknown): StreamMessage | string {
  if (typeof content === "string") {
    return content.trim() === "" ? '"message.content" is empty' : { text: content };
  }
  if (!Array.isArray(content)) return '"message.content" must be a string or a list of content blocks';
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const [index, block] of content.entries()) {
    const where = `message.content[${index}]`;
    const kind = (block as { type?: unknown } | null)?.type;
    if (kind === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text !== "string") return `${where}: a text block needs a "text" string`;
      texts.push(text);
      continue;
    }
    if (kind !== "image") {
      return `${where}: a block of type ${
        JSON.stringify(kind)
      } is not taken here; send "text" and "image" blocks`;
    }
    const image = imageBlock(block as Record<string, unknown>, where, images.length);
    if (typeof image === "string") return image;
    images.push(image);
  }
  const text = texts.join("\n\n");
  if (text.trim() === "" && images.length === 0) return '"message.content" holds no text and no image';
  return images.length === 0 ? { text } : { text, images };
}

/** One `{"type":"image","source":{"type":"base64","media_type":...,"data":...}}` block. */
function imageBlock(block: Record<string, unknown>, where: string, count: number): ImagePart | string {
  if (count >= MAX_IMAGES) return `${where}: at most ${MAX_IMAGES} images in one message`;
  const source = block.source as Record<string, unknown> | undefined;
  if (source?.type !== "base64" || typeof source.data !== "string") {
    return `${where}: an image needs "source": {"type": "base64", "media_type": "image/png", "data": "..."}`;
  }
  const mediaType = String(source.media_type ?? "");
  if (!MEDIA_TYPES.includes(mediaType)) {
    return `${where}: media_type must be one of ${MEDIA_TYPES.join(", ")} (got ${JSON.stringify(mediaType)})`;
  }
  const data = source.data.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) return `${where}: "data" is not base64`;
  const bytes = (data.length / 4) * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  if (bytes > MAX_IMAGE_BYTES) {
    return `${where}: the image is ${bytes.toLocaleString("en-US")} bytes; images over 5 MB are not sent`;
  }
  return { mediaType: mediaType as ImageMediaType, data, name: `stdin image ${count + 1}` };
}
