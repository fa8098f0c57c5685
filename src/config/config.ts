/**
 * Configuration: which model to talk to and how. Precedence, highest first: command-line flags, the real
 * environment, `.env` in the project root (variable by variable), then the provider preset.
 */
import { unknownTernVariables } from "./env_names.ts";
import { loadDotenv } from "./dotenv.ts";
import { type ProbeLocal, probeLocalServers } from "./local_servers.ts";
import { modelCallEnv, type ModelCallSettings } from "./model_call_env.ts";
import type { RunSettings } from "./settings.ts";
import {
  CUSTOM_LABEL,
  DEFAULT_PROVIDER,
  findProvider,
  PROVIDER_APIS,
  type ProviderApi,
  type ProviderPreset,
  PROVIDERS,
} from "./providers.ts";

/** What the command line chose: the run settings and, when given, the model, endpoint and wire. */
export interface ConfigArgs extends RunSettings {
  provider?: string;
  model?: string;
  baseUrl?: string;
  api?: string;
}

/** Everything a run needs to know before it starts. */
export interface Config extends RunSettings, ModelCallSettings {
  /** The preset's name (see `findProvider`). */
  provider: string;
  model: string;
  /** Without a trailing slash; the wire's path (e.g. `/chat/completions`) and `/models` are appended. */
  baseUrl: string;
  /** The wire format spoken: `--api`, else `TERN_API`, else the preset's. */
  api: ProviderApi;
  /** Who answers, for the banner and errors: the preset's label, or "custom" for a base URL given. */
  label: string;
  /** Absent when the endpoint needs none: send no Authorization header then. */
  apiKey?: string;
  /** The preset's context window, in tokens. */
  contextWindow: number;
  /** The project root: the sandbox. */
  root: string;
  /** One line for the banner when tern chose something the user did not ask for (a local server). */
  notice?: string;
  /**
   * A custom endpoint was given without a model: `model` is the preset's default, a guess. Its price is
   * not taken as known (what that server charges, or even serves, is not known).
   */
  guessedModel?: true;
  /**
   * Set when the project's `.env` chose the endpoint (TERN_BASE_URL or TERN_PROVIDER) while the key came
   * from the user's own environment: the key must not go there unasked. `variable` is what .env set.
   */
  untrustedEndpoint?: { endpoint: string; variable: string };
  /** Lines of `.env` that were skipped, one warning each, for stderr. */
  warnings: string[];
}

/** A configuration that cannot work; `message` is one line that says what to set. Exit code 2. */
export class ConfigError extends Error {
  /** The process exit code for a configuration error. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** The inputs of `loadConfig`; `env` is the real environment (e.g. `Deno.env.toObject()`). */
export interface LoadConfigOptions {
  args: ConfigArgs;
  env: Record<string, string | undefined>;
  root: string;
  /** Defaults to `probeLocalServers()` on the usual ports of the local presets (Ollama, llama.cpp, ...). */
  probeLocal?: ProbeLocal;
}

/**
 * Builds the configuration. Throws a `ConfigError` (exit code 2) for an unknown provider, a base URL that
 * is not http(s), or a missing key when no local server answers. A base URL override never needs a key.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const { args, root } = options;
  const dotenv = await loadDotenv(root);
  const env = mergeEnv(dotenv.values, options.env);
  const chosen = args.provider ?? env.TERN_PROVIDER;
  const from = args.provider !== undefined ? "--provider" : "TERN_PROVIDER";
  const preset = chosen === undefined ? DEFAULT_PROVIDER : presetNamed(chosen, from);
  const baseUrl = args.baseUrl !== undefined
    ? httpUrl("--base-url", args.baseUrl)
    : env.TERN_BASE_URL && httpUrl("TERN_BASE_URL", env.TERN_BASE_URL);
  const model = args.model ?? env.TERN_MODEL;
  const api = args.api !== undefined
    ? wireApi("--api", args.api)
    : env.TERN_API !== undefined
    ? wireApi("TERN_API", env.TERN_API)
    : undefined;
  const apiKey = env.TERN_API_KEY ?? (preset.keyEnv === null ? undefined : env[preset.keyEnv]);
  const common = {
    root,
    // A misspelt TERN_* name would be ignored without a word: said once at start, with the nearest name.
    warnings: [
      ...dotenv.warnings,
      ...unknownTernVariables(Object.keys(dotenv.values), ".env"),
      ...unknownTernVariables(Object.keys(options.env), "the environment"),
    ],
    ...runSettings(args, env),
  };
  if (apiKey !== undefined || preset.keyEnv === null || baseUrl !== undefined) {
    const untrustedEndpoint = apiKey === undefined ? undefined : projectEndpoint({
      args,
      project: dotenv.values,
      real: options.env,
      keyVariable: env.TERN_API_KEY !== undefined ? "TERN_API_KEY" : preset.keyEnv!,
      endpoint: baseUrl ?? presetBaseUrl(preset, options.env),
    });
    const guessed = baseUrl !== undefined && model === undefined;
    return {
      ...common,
      ...(untrustedEndpoint && { untrustedEndpoint }),
      ...(guessed && {
        guessedModel: true,
        notice: `no model named: asking the custom endpoint for ${preset.defaultModel} (${preset.name}'s ` +
          "default); --model or TERN_MODEL names the model it serves",
      }),
      provider: preset.name,
      model: model ?? preset.defaultModel,
      baseUrl: baseUrl ?? presetBaseUrl(preset, options.env),
      api: api ?? preset.api,
      label: baseUrl !== undefined ? CUSTOM_LABEL : preset.label,
      ...(apiKey !== undefined && { apiKey }),
      contextWindow: preset.contextWindow,
    };
  }
  const local = chosen === undefined ? await (options.probeLocal ?? probeLocalServers)() : null;
  if (local === null) throw new ConfigError(missingKeyMessage(preset));
  return {
    ...common,
    provider: local.provider.name,
    model: model ?? local.models[0] ?? local.provider.defaultModel,
    baseUrl: trimSlashes(local.baseUrl),
    api: api ?? local.provider.api,
    label: local.provider.label,
    contextWindow: local.provider.contextWindow,
    notice: `no API key set; using local ${local.provider.label} at ${trimSlashes(local.baseUrl)}`,
  };
}

/** The run settings of the command line and the model-call variables; a bad variable is a ConfigError. */
function runSettings(args: ConfigArgs, env: Record<string, string | undefined>) {
  const calls = modelCallEnv(env);
  if (calls.problem) throw new ConfigError(calls.problem);
  return {
    ...calls.settings,
    approve: args.approve,
    sandbox: args.sandbox,
    output: args.output,
    ...(args.prompt !== undefined && { prompt: args.prompt }),
    ...(args.maxTurns !== undefined && { maxTurns: args.maxTurns }),
    ...(args.tokenBudget !== undefined && { tokenBudget: args.tokenBudget }),
    ...(args.timeLimitMs !== undefined && { timeLimitMs: args.timeLimitMs }),
    ...(args.requireTools !== undefined && { requireTools: args.requireTools }),
  };
}

/** `.env` values overlaid with the real environment; blank values count as unset, others are trimmed. */
/**
 * The project's choice of endpoint, when the project's `.env` (and not the user: no flag, no real variable)
 * set TERN_BASE_URL or TERN_PROVIDER while the key came from the user's own environment.
 */
function projectEndpoint(options: {
  args: ConfigArgs;
  project: Record<string, string>;
  real: Record<string, string | undefined>;
  keyVariable: string;
  endpoint: string;
}): { endpoint: string; variable: string } | undefined {
  const { args, project, real } = options;
  const fromProject = (name: string) => Boolean(project[name]?.trim()) && !real[name]?.trim();
  if (fromProject(options.keyVariable)) return undefined; // the project brought its own key
  const variable = args.baseUrl === undefined && fromProject("TERN_BASE_URL")
    ? "TERN_BASE_URL"
    : args.provider === undefined && fromProject("TERN_PROVIDER")
    ? "TERN_PROVIDER"
    : undefined;
  return variable === undefined ? undefined : { endpoint: trimSlashes(options.endpoint), variable };
}

function mergeEnv(
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

/**
 * The environment variable that moves a preset's endpoint (e.g. `ANTHROPIC_BASE_URL` for a proxy), or
 * undefined for the local presets. Read from the real environment only: a project's `.env` cannot send a
 * preset's key somewhere else.
 */
export function baseUrlVariable(preset: ProviderPreset): string | undefined {
  return preset.keyEnv?.replace(/_API_KEY$/, "_BASE_URL");
}

function presetBaseUrl(preset: ProviderPreset, realEnv: Record<string, string | undefined>): string {
  const variable = baseUrlVariable(preset);
  const value = variable === undefined ? undefined : realEnv[variable]?.trim();
  return value ? httpUrl(variable!, value) : preset.baseUrl;
}

/** The preset called `name`; a `ConfigError` naming `source` and listing the known ones otherwise. */
function presetNamed(name: string, source: string): ProviderPreset {
  const preset = findProvider(name);
  if (preset) return preset;
  const known = PROVIDERS.map((p) => p.name).join(", ");
  throw new ConfigError(`unknown provider '${name}' (from ${source}); known providers: ${known}`);
}

/** `value` as a wire format name; a `ConfigError` naming `source` and the known names otherwise. */
function wireApi(source: string, value: string): ProviderApi {
  const word = value.trim().toLowerCase();
  if ((PROVIDER_APIS as readonly string[]).includes(word)) return word as ProviderApi;
  throw new ConfigError(`${source} must be one of ${PROVIDER_APIS.join(", ")} (got '${value}')`);
}

/** `value` as an http(s) URL without trailing slashes; a `ConfigError` naming `source` otherwise. */
function httpUrl(source: string, value: string): string {
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
function trimSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The one line telling the user which variable to set. */
function missingKeyMessage(preset: ProviderPreset): string {
  return `no API key: set ${preset.keyEnv} (or TERN_API_KEY) in the environment or in .env in the project ` +
    `root, or pick a local provider with --provider ollama`;
}
