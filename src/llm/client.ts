/** Picks the wire format a provider speaks and returns a client for it over the shared transport. */
import { anthropicMessagesWire } from "./anthropic_messages.ts";
import { chatWire, type ReasoningEcho } from "./chat_completions.ts";
import { openaiResponsesWire } from "./openai_responses.ts";
import { textOnlyMessages } from "./_images.ts";
import { type TransportOptions, WireClient } from "./transport.ts";
import type { LlmClient, WireApi } from "./types.ts";
import type { Wire } from "./wire.ts";

/** What createClient needs: the provider's wire format plus where and how to reach it. */
export interface ClientConfig extends TransportOptions {
  api: WireApi;
  /** Chat wire only: whether tool-call messages carry reasoning back (default "auto"). */
  reasoningEcho?: ReasoningEcho;
  /** False for a model that reads text only: each image goes as a line saying it was not sent. Default true. */
  images?: boolean;
}

/** The wire modules, by the `api` a provider preset names; the chat wire is built per client (it learns). */
const WIRES: Record<WireApi, (config: ClientConfig) => Wire> = {
  chat: (config) => chatWire(config.reasoningEcho),
  responses: () => openaiResponsesWire,
  anthropic: () => anthropicMessagesWire,
};

/** An LlmClient speaking `config.api`; throws an Error naming the known ones for any other word. */
export function createClient(config: ClientConfig): LlmClient {
  const wire = Object.hasOwn(WIRES, config.api) ? WIRES[config.api](config) : undefined;
  if (!wire) throw new Error(`unknown wire format '${config.api}' (known: ${Object.keys(WIRES).join(", ")})`);
  const { baseUrl, apiKey, headers, fetchTimeoutMs, idleTimeoutMs } = config;
  const spoken = config.images === false ? textOnly(wire) : wire;
  return new WireClient(spoken, { baseUrl, apiKey, headers, fetchTimeoutMs, idleTimeoutMs });
}

/** `wire` for a model that reads text only: images never reach the body, a note says each was left out. */
function textOnly(wire: Wire): Wire {
  return {
    api: wire.api,
    buildRequest: (request, auth) =>
      wire.buildRequest({ ...request, messages: textOnlyMessages(request.messages) }, auth),
    createAssembler: (source) => wire.createAssembler(source),
    ...(wire.recover && { recover: (error) => wire.recover!(error) }),
  };
}
