/**
 * The checks and look-ups both a start (`loadConfig`) and a switch (`switchProvider`) make: a preset by name,
 * a wire by name, an http(s) URL, a preset's endpoint variable, and `.env` merged under the environment.
 */
import { ConfigError } from "./config_error.ts";
import {
  findProvider,
  PROVIDER_APIS,
  type ProviderApi,
  type ProviderPreset,
  PROVIDERS,
} from "./providers.ts";

/** `.env` values overlaid with the real environment; blank values count as unset, others are trimmed. */
export function mergeEnv(
  dotenv: Record<string, string>,
  real: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = {};
  for (const source of [dotenv, real]) {
    for (const [key, value] of Object.entries(source)) {
      const trimmed = value?.trim();
      if (trimmed) merged[key] = trimmed;
    }
  }
  return merged;
}

/**
 * The environment variable that moves a preset's endpoint (e.g. `ANTHROPIC_BASE_URL` for a proxy), or
 * undefined for the local presets. Read from the real environment only: a project's `.env` cannot send a
 * preset's key somewhere else.
 */
export function baseUrlVariable(preset: ProviderPreset): string | undefined {
  return preset.keyEnv?.replace(/_API_KEY$/, "_BASE_URL");
}

/** A preset's base URL: its `<NAME>_BASE_URL` from the real environment, else the preset's own. */
export function presetBaseUrl(preset: ProviderPreset, realEnv: Record<string, string | undefined>): string {
  const variable = baseUrlVariable(preset);
  const value = variable === undefined ? undefined : realEnv[variable]?.trim();
  return value ? httpUrl(variable!, value) : preset.baseUrl;
}

/** The preset called `name`; a `ConfigError` naming `source` and listing the known ones otherwise. */
export function presetNamed(name: string, source: string): ProviderPreset {
  const preset = findProvider(name);
  if (preset) return preset;
  const known = PROVIDERS.map((p) => p.name).join(", ");
  throw new ConfigError(`unknown provider '${name}' (from ${source}); known providers: ${known}`);
}

/** `value` as a wire format name; a `ConfigError` naming `source` and the known names otherwise. */
export function wireApi(source: string, value: string): ProviderApi {
  const word = value.trim().toLowerCase();
  if ((PROVIDER_APIS as readonly string[]).includes(word)) return word as ProviderApi;
  throw new ConfigError(`${source} must be one of ${PROVIDER_APIS.join(", ")} (got '${value}')`);
}

/** `value` as an http(s) URL without trailing slashes; a `ConfigError` naming `source` otherwise. */
export function httpUrl(source: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new ConfigError(`${source} must be an http:// or https:// URL (got '${value}')`);
  }
  return trimSlashes(value.trim());
}

/** `url` without trailing slashes, so paths can be appended with one `/`. */
export function trimSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}
