/**
 * Configuration: which model to talk to and how. Precedence, highest first: command-line flags, the real
 * environment, `.env` in the project root (variable by variable), then the provider preset.
 */
import { ConfigError } from "./config_error.ts";
import { httpUrl, mergeEnv, presetBaseUrl, presetNamed, trimSlashes, wireApi } from "./config_values.ts";
import { unknownTernVariables } from "./env_names.ts";
import { loadDotenv } from "./dotenv.ts";
import { type ProbeLocal, probeLocalServers } from "./local_servers.ts";
import { modelCallEnv, type ModelCallSettings } from "./model_call_env.ts";
import type { RunSettings } from "./settings.ts";
import { CUSTOM_LABEL, DEFAULT_PROVIDER, type ProviderApi, type ProviderPreset } from "./providers.ts";

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
  const dotenv = await loadDotenv(options.root);
  const env = mergeEnv(dotenv.values, options.env);
  const choice = chosenModel(options.args, env);
  const { preset, apiKey, baseUrl } = choice;
  const common = {
    root: options.root,
    // A misspelt TERN_* name would be ignored without a word: said once at start, with the nearest name.
    warnings: [
      ...dotenv.warnings,
      ...unknownTernVariables(Object.keys(dotenv.values), ".env"),
      ...unknownTernVariables(Object.keys(options.env), "the environment"),
    ],
    ...runSettings(options.args, env),
  };
  if (apiKey !== undefined || preset.keyEnv === null || baseUrl !== undefined) {
    const untrustedEndpoint = apiKey === undefined ? undefined : projectEndpoint({
      args: options.args,
      project: dotenv.values,
      real: options.env,
      keyVariable: env.TERN_API_KEY !== undefined ? "TERN_API_KEY" : preset.keyEnv!,
      endpoint: baseUrl ?? presetBaseUrl(preset, options.env),
    });
    return {
      ...common,
      ...(untrustedEndpoint && { untrustedEndpoint }),
      ...endpointChosen(choice, options.env),
    };
  }
  const local = choice.named ? null : await (options.probeLocal ?? probeLocalServers)();
  if (local === null) throw new ConfigError(missingKeyMessage(preset));
  return {
    ...common,
    provider: local.provider.name,
    model: choice.model ?? local.models[0] ?? local.provider.defaultModel,
    baseUrl: trimSlashes(local.baseUrl),
    api: choice.api ?? local.provider.api,
    label: local.provider.label,
    contextWindow: local.provider.contextWindow,
    notice: `no API key set; using local ${local.provider.label} at ${trimSlashes(local.baseUrl)}`,
  };
}

/** What the flags and variables chose: a preset (named or the default), a base URL, a model, a wire, a key. */
interface ModelChoice {
  /** A provider was named (flag or TERN_PROVIDER): no local server is looked for. */
  named: boolean;
  preset: ProviderPreset;
  baseUrl?: string;
  model?: string;
  api?: ProviderApi;
  apiKey?: string;
}

/** The flags over the merged variables; a bad provider, URL or wire is a ConfigError naming its source. */
function chosenModel(args: ConfigArgs, env: Record<string, string | undefined>): ModelChoice {
  const chosen = args.provider ?? env.TERN_PROVIDER;
  const from = args.provider !== undefined ? "--provider" : "TERN_PROVIDER";
  const preset = chosen === undefined ? DEFAULT_PROVIDER : presetNamed(chosen, from);
  const baseUrl = args.baseUrl !== undefined
    ? httpUrl("--base-url", args.baseUrl)
    : env.TERN_BASE_URL && httpUrl("TERN_BASE_URL", env.TERN_BASE_URL);
  const api = args.api !== undefined
    ? wireApi("--api", args.api)
    : env.TERN_API !== undefined
    ? wireApi("TERN_API", env.TERN_API)
    : undefined;
  const apiKey = env.TERN_API_KEY ?? (preset.keyEnv === null ? undefined : env[preset.keyEnv]);
  return {
    named: chosen !== undefined,
    preset,
    baseUrl: baseUrl || undefined,
    model: args.model ?? env.TERN_MODEL,
    api,
    apiKey,
  };
}

/** The endpoint part of a configuration that has its key (or needs none, or was given a base URL). */
function endpointChosen(choice: ModelChoice, realEnv: Record<string, string | undefined>) {
  const { preset, baseUrl, model, api, apiKey } = choice;
  const guessed = baseUrl !== undefined && model === undefined;
  return {
    ...(guessed && {
      guessedModel: true as const,
      notice: `no model named: asking the custom endpoint for ${preset.defaultModel} (${preset.name}'s ` +
        "default); --model or TERN_MODEL names the model it serves",
    }),
    provider: preset.name,
    model: model ?? preset.defaultModel,
    baseUrl: baseUrl ?? presetBaseUrl(preset, realEnv),
    api: api ?? preset.api,
    label: baseUrl !== undefined ? CUSTOM_LABEL : preset.label,
    ...(apiKey !== undefined && { apiKey }),
    contextWindow: preset.contextWindow,
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

/** The one line telling the user which variable to set. */
function missingKeyMessage(preset: ProviderPreset): string {
  return `no API key: set ${preset.keyEnv} (or TERN_API_KEY) in the environment or in .env in the project ` +
    `root, or pick a local provider with --provider ollama`;
}
