/**
 * Which models read images. A model that does gets a read_file of a PNG, JPEG, GIF or WebP (and a `@shot.png`
 * in the prompt) as an image; one that reads text only is told so in words and never sent the bytes.
 * `TERN_IMAGES=on|off` overrides the table for a model it does not know (a local vision model, say).
 */

/** Names (lower case, without an OpenRouter-style `vendor/` prefix) of models that read text only. */
const TEXT_ONLY = [
  /^deepseek/,
  /^gpt-3\.5/,
  /^gpt-4(-0613|-32k)?$/,
  /^o1-mini/,
  /^o3-mini/,
  /^gpt-oss/,
  /^codestral/,
  /^devstral/,
  /^qwen\d*(\.\d+)?-?coder/,
  /^glm-4(\.\d+)?(-air|-flash)?$/,
  /^kimi-k2(-|$)/,
];

/** Names of models known to read images. */
const VISION = [
  /^claude-/,
  /^(chatgpt-)?gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-5/,
  /^o[134](-|$)/,
  /^gemini-/,
  /^gemma-?3/,
  /^grok-(4|2-vision|vision)/,
  /pixtral/,
  /^mistral-(small|medium)-(2503|2505|2506|latest)/,
  /llama-?4/,
  /(^|[-_.:])vl([-_.:]|$)/,
  /^qwen[\d.]*-?vl/,
  /^glm-4(\.\d+)?v/,
  /vision/,
  /llava|moondream|minicpm-v/,
];

/** Providers whose models read images unless the tables above say otherwise. */
const IMAGE_PROVIDERS = new Set(["anthropic", "openai", "gemini"]);

/** What decides: the model's name, its provider preset and wire, and `TERN_IMAGES` when set. */
export interface ImageQuestion {
  model: string;
  provider: string;
  api: string;
  /** `TERN_IMAGES`: "on" or "off" (also 1/0, true/false, yes/no) wins over the tables. */
  setting?: string;
}

/** Whether the model reads images: `TERN_IMAGES`, else the tables, else its provider or the Anthropic wire. */
export function acceptsImages(question: ImageQuestion): boolean {
  const setting = question.setting?.trim().toLowerCase();
  if (setting && ["on", "1", "true", "yes"].includes(setting)) return true;
  if (setting && ["off", "0", "false", "no"].includes(setting)) return false;
  const name = question.model.toLowerCase().split("/").at(-1)!;
  if (TEXT_ONLY.some((pattern) => pattern.test(name))) return false;
  if (VISION.some((pattern) => pattern.test(name))) return true;
  return IMAGE_PROVIDERS.has(question.provider) || question.api === "anthropic";
}
