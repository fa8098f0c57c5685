/**
 * The model a session talks to: the client for the chosen endpoint and wire, and the facts that follow the
 * model (its context window, its price, the words for a failed call). Built anew at every switch.
 */
import { CUSTOM_LABEL, findProvider } from "../config/providers.ts";
import type { Config } from "../config/config.ts";
import { knownContextWindow } from "../config/context_windows.ts";
import { findPrice, type ModelPrice } from "../config/prices.ts";
import { acceptsImages } from "../config/model_images.ts";
import { createClient } from "../llm/client.ts";
import type { CallContext } from "../llm/retry.ts";
import type { LlmClient } from "../llm/types.ts";

/** Who answers: the model, its endpoint and wire, in the words a front end shows. */
export interface ModelInfo {
  /** The preset's name, or "custom" for a base URL the user gave. */
  provider: string;
  /** A human name for the endpoint, e.g. "DeepSeek" or "custom". */
  label: string;
  model: string;
  /** The wire format: chat, responses or anthropic. */
  api: string;
  baseUrl: string;
  contextWindow: number;
  /** Undefined when tern has no price for the model. */
  price?: ModelPrice;
  /** The model reads images (read_file of a PNG, `@shot.png`); false: it is told so in words instead. */
  images: boolean;
}

/** A model ready for the loop: its client and what the loop's options carry about it. */
export interface ModelSetup {
  info: ModelInfo;
  client: LlmClient;
  /** The provider words for a failed call (which variable holds the key, how to fix it). */
  provider: Omit<CallContext, "model">;
  /** The key this endpoint gets; redacted from command output. */
  apiKey?: string;
  /** Attempts per call and the first backoff step (TERN_MAX_RETRIES, TERN_RETRY_DELAY); absent: the defaults. */
  retry: { maxAttempts?: number; baseDelayMs?: number };
}

/**
 * The client and facts for `config`; `contextWindow` (the flag) wins over the model's known window, and
 * `images` (`TERN_IMAGES`) over the table of models that read images.
 */
export function modelSetup(
  config: Config,
  options: { contextWindow?: number; advise?: CallContext["advise"]; images?: string } = {},
): ModelSetup {
  const preset = findProvider(config.provider);
  const custom = config.label === CUSTOM_LABEL;
  const { api, baseUrl, apiKey } = config;
  const images = acceptsImages({
    model: config.model,
    provider: config.provider,
    api,
    setting: options.images,
  });
  const client = createClient({
    images,
    api,
    baseUrl,
    apiKey,
    fetchTimeoutMs: config.firstByteTimeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    // The preset's rule for sending reasoning back; a custom endpoint gets "auto" (sent once reasoning appears).
    reasoningEcho: custom ? undefined : preset?.reasoningEcho,
  });
  const info: ModelInfo = {
    provider: custom ? CUSTOM_LABEL : config.provider,
    label: config.label,
    model: config.model,
    api,
    baseUrl,
    contextWindow: options.contextWindow ?? knownContextWindow(config.model) ?? config.contextWindow,
    // A model only guessed for a custom endpoint has no known price there.
    price: config.guessedModel ? undefined : findPrice(config.model),
    images,
  };
  // A custom endpoint's key is TERN_API_KEY, never the preset's own variable.
  const keyEnv = custom ? null : preset?.keyEnv ?? null;
  const retry = {
    ...(config.maxRetries !== undefined && { maxAttempts: config.maxRetries + 1 }),
    ...(config.retryDelayMs !== undefined && { baseDelayMs: config.retryDelayMs }),
  };
  return {
    info,
    client,
    provider: { provider: config.label, keyEnv, advise: options.advise },
    apiKey,
    retry,
  };
}

/** "deepseek-chat via DeepSeek (chat wire)". */
export function describeModel(info: ModelInfo): string {
  return `${info.model} via ${info.label} (${info.api} wire)`;
}
