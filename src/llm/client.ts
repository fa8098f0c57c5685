/** Picks the wire format a provider speaks and returns a client for it over the shared transport. */
import { chatCompletionsWire } from "./chat_completions.ts";
import { type TransportOptions, WireClient } from "./transport.ts";
import type { LlmClient, WireApi } from "./types.ts";
import type { Wire } from "./wire.ts";

/** What createClient needs: the provider's wire format plus where and how to reach it. */
export interface ClientConfig extends TransportOptions {
  api: WireApi;
}

/** The wire modules that exist so far, by the `api` a provider preset names. */
const WIRES: Partial<Record<WireApi, Wire>> = {
  chat: chatCompletionsWire,
};

/** An LlmClient speaking `config.api`; throws an Error for a wire format tern does not speak yet. */
export function createClient(config: ClientConfig): LlmClient {
  const wire = WIRES[config.api];
  if (!wire) throw new Error(`the ${config.api} wire format is not supported yet`);
  const { baseUrl, apiKey, headers, fetchTimeoutMs, idleTimeoutMs } = config;
  return new WireClient(wire, { baseUrl, apiKey, headers, fetchTimeoutMs, idleTimeoutMs });
}
