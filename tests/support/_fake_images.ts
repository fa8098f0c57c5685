/**
 * The fake model's checks of content that may hold images, one per wire, as strict as the real APIs: a
 * part of an unknown type, an image that is not a base64 PNG, JPEG, GIF or WebP, or a tool result whose
 * content a wire does not take is refused.
 */

type Json = Record<string, unknown>;

const MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parts(content: unknown, where: string): Json[] | string {
  if (!Array.isArray(content) || content.length === 0) return `${where}: content must be a string or parts`;
  return content.map((part) => isObject(part) ? part : {});
}

/** Chat completions: a user message's content is a string or `text` / `image_url` parts (a data URL). */
export function checkChatContent(message: Json, where: string): string | undefined {
  if (typeof message.content === "string" || message.content == null) return undefined;
  if (message.role !== "user") return `${where}: only a user message may hold content parts here`;
  const list = parts(message.content, where);
  if (typeof list === "string") return list;
  for (const part of list) {
    if (part.type === "text" && typeof part.text === "string") continue;
    const url = isObject(part.image_url) ? part.image_url.url : undefined;
    if (part.type === "image_url" && typeof url === "string" && DATA_URL.test(url)) continue;
    return `${where}: bad content part ${JSON.stringify(part).slice(0, 80)}`;
  }
  return undefined;
}

/** Responses: a message's content is a string or `input_text` / `input_image` parts (user messages only). */
export function checkResponsesContent(item: Json, where: string): string | undefined {
  if (typeof item.content === "string") return undefined;
  if (item.role !== "user") return `${where}: only a user message may hold input parts here`;
  const list = parts(item.content, where);
  if (typeof list === "string") return list;
  for (const part of list) {
    if (part.type === "input_text" && typeof part.text === "string") continue;
    if (part.type === "input_image" && typeof part.image_url === "string" && DATA_URL.test(part.image_url)) {
      continue;
    }
    return `${where}: bad input part ${JSON.stringify(part).slice(0, 80)}`;
  }
  return undefined;
}

/** Anthropic: an `image` block has a base64 source of a known media type. */
export function checkAnthropicImage(block: Json, where: string): string | undefined {
  const source = isObject(block.source) ? block.source : {};
  const ok = source.type === "base64" && MEDIA_TYPES.includes(String(source.media_type)) &&
    typeof source.data === "string" && /^[A-Za-z0-9+/]+={0,2}$/.test(source.data);
  return ok ? undefined : `${where}: an image block needs a base64 source of PNG, JPEG, GIF or WebP`;
}

/** Anthropic: a tool_result's content is a string or `text` and `image` blocks. */
export function checkAnthropicResultContent(block: Json, where: string): string | undefined {
  if (typeof block.content === "string") return undefined;
  const list = parts(block.content, where);
  if (typeof list === "string") return list;
  for (const inner of list) {
    if (inner.type === "text" && typeof inner.text === "string") continue;
    if (inner.type === "image") {
      const problem = checkAnthropicImage(inner, where);
      if (problem) return problem;
      continue;
    }
    return `${where}: a tool_result holds text and image blocks only`;
  }
  return undefined;
}
