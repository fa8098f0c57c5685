/**
 * Images on the wires that carry them apart from tool results (chat completions, Responses): the caption
 * that ties a tool result's image to its call, the data URL, and the text-only view of a request.
 */
import type { ImagePart, Message } from "./types.ts";

/** A tool message that carries images. */
type ToolMessage = Extract<Message, { role: "tool" }>;

/** `data:image/png;base64,…`: how chat completions (`image_url`) and Responses (`input_image`) take an image. */
export function dataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/**
 * The words before a tool result's image on a wire whose tool results hold text only: the image goes in a
 * user message after the results, so this says which call it belongs to.
 */
export function imageCaption(message: ToolMessage, image: ImagePart): string {
  return `[the image ${image.name} returned by ${message.name} (call ${message.toolCallId})]`;
}

/** A tool result's image with the caption that names its call. */
export interface CaptionedImage {
  caption: string;
  image: ImagePart;
}

/**
 * The wire messages of `messages` (each mapped by `toWire`), with each run of consecutive tool results
 * followed by one user message holding their images (built by `imageMessage`): for wires whose tool results
 * carry text only. A history without images maps one to one.
 */
export function withResultImages<T>(
  messages: readonly Message[],
  toWire: (message: Message) => T,
  imageMessage: (images: CaptionedImage[]) => T,
): T[] {
  const out: T[] = [];
  let pending: CaptionedImage[] = [];
  for (const message of messages) {
    if (message.role !== "tool" && pending.length > 0) {
      out.push(imageMessage(pending));
      pending = [];
    }
    out.push(toWire(message));
    if (message.role !== "tool") continue;
    for (const image of message.images ?? []) pending.push({ caption: imageCaption(message, image), image });
  }
  if (pending.length > 0) out.push(imageMessage(pending));
  return out;
}

/**
 * The messages as a model that reads text only gets them: each image replaced by a line saying it was not
 * sent (it may come from before a switch to this model). Messages without images are shared as they are.
 */
export function textOnlyMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if ((message.role !== "user" && message.role !== "tool") || !message.images?.length) return message;
    const { images, ...rest } = message;
    const notes = images.map((image) => `[image ${image.name} not sent: this model reads text only]`);
    return { ...rest, content: `${message.content}\n${notes.join("\n")}` };
  });
}
