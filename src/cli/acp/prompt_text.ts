/**
 * An ACP prompt (content blocks) as the text of one user message: text as is, embedded resources (a file or
 * selection the editor attached) inside a `<context>` block with their URI, links as a line naming them.
 * Images and audio are refused: tern's conversation carries text only, so initialize does not offer them.
 */
import type * as acp from "@agentclientprotocol/sdk";

/** Why a prompt cannot be taken; becomes an "invalid params" error. */
export class PromptContentError extends Error {}

/** The prompt's text; throws a PromptContentError for content tern cannot take or an empty prompt. */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  const parts = blocks.map((block, i) => blockText(block, i));
  const text = parts.join("\n\n").trim();
  if (text === "") throw new PromptContentError("the prompt is empty: send at least one text block");
  return text;
}

function blockText(block: acp.ContentBlock, index: number): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `Linked: ${block.title ?? block.name} (${block.uri})`;
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return `<context uri="${resource.uri}">\n${resource.text}\n</context>`;
      return `(attached binary resource ${resource.uri} left out: tern reads text only)`;
    }
    case "image":
    case "audio":
      throw new PromptContentError(
        `prompt block ${index + 1} is ${block.type === "image" ? "an image" : "audio"}: tern takes text, ` +
          "resource links and embedded text resources (initialize offers no image or audio)",
      );
    default:
      throw new PromptContentError(`prompt block ${index + 1} has an unknown type`);
  }
}
