/** Moving a configuration to another model or provider mid-conversation (`/model`, `--fallback`). */
import type { Config } from "./config.ts";
import { ConfigError } from "./config_error.ts";
import { mergeEnv, presetBaseUrl, presetNamed } from "./config_values.ts";
import { loadDotenv } from "./dotenv.ts";
import { CUSTOM_LABEL, findProvider } from "./providers.ts";

/** What `/model` and `--fallback` ask for: a preset (with or without a model), or a model on the same endpoint. */
export interface ModelRequest {
  provider?: string;
  model?: string;
}

/**
 * `config` moved mid-conversation (`/model`, `--fallback`). Only a model (`provider` absent, or the current
 * preset's own endpoint): same endpoint, wire and key. A preset: its base URL (`<NAME>_BASE_URL` from the real
 * environment overrides it) and wire, and the key rule: a key goes only to the endpoint it was given for.
 * `TERN_API_KEY` belongs to the endpoint chosen at start (`start`); another endpoint takes its preset's own
 * variable from the environment or `.env`. Throws a `ConfigError` for an unknown provider or a missing key
 * (naming the variable to set); the run settings are kept.
 */
export async function switchProvider(
  config: Config,
  choice: ModelRequest,
  realEnv: Record<string, string | undefined>,
  start: Pick<Config, "baseUrl" | "apiKey"> = config,
): Promise<Config> {
  const sameEndpoint = choice.provider === undefined ||
    (findProvider(choice.provider)?.name === config.provider && config.label !== CUSTOM_LABEL);
  if (sameEndpoint) {
    const { guessedModel: _guessed, ...rest } = config;
    return choice.model === undefined
      ? { ...config, notice: undefined }
      : { ...rest, model: choice.model, notice: undefined };
  }
  const preset = presetNamed(choice.provider!, "/model");
  const baseUrl = presetBaseUrl(preset, realEnv);
  const env = mergeEnv((await loadDotenv(config.root)).values, realEnv);
  const apiKey = baseUrl === config.baseUrl
    ? config.apiKey
    : baseUrl === start.baseUrl
    ? start.apiKey
    : preset.keyEnv === null
    ? undefined
    : env[preset.keyEnv];
  if (preset.keyEnv !== null && apiKey === undefined) {
    throw new ConfigError(
      `no API key for ${preset.label}: set ${preset.keyEnv} in the environment or in .env in the project root ` +
        `(TERN_API_KEY is only sent to the endpoint tern started with)`,
    );
  }
  const { apiKey: _old, notice: _notice, untrustedEndpoint: _asked, guessedModel: _guessed, ...rest } =
    config;
  return {
    ...rest,
    provider: preset.name,
    label: preset.label,
    model: choice.model ?? preset.defaultModel,
    baseUrl,
    api: preset.api,
    ...(apiKey !== undefined && { apiKey }),
    contextWindow: preset.contextWindow,
  };
}
