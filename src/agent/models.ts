/**
 * The model side of a session: the configuration in force and the one it started with, the client and the
 * request gauge for it, the `--fallback` model, and every key the session has used (redacted from command
 * output). `AgentSession` owns one; a switch goes through `resolve` (the key rule) and `use`.
 */
import type { Config } from "../config/config.ts";
import { ConfigError } from "../config/config_error.ts";
import { type ModelRequest, switchProvider } from "../config/provider_switch.ts";
import type { CallContext } from "../llm/retry.ts";
import type { LoopOptions } from "./loop/loop_options.ts";
import { RequestGauge } from "./loop/request_gauge.ts";
import { type ModelSetup, modelSetup } from "./model_setup.ts";

/** What every model of a session is built with. */
export interface SessionModelsOptions {
  /** The real environment: where a switch to another provider finds that provider's key. */
  env: Record<string, string | undefined>;
  /** `--context-window`: wins over the model's known window. */
  contextWindow?: number;
  advise?: CallContext["advise"];
}

/** The model a session talks to now, and how it moves to another. */
export class SessionModels {
  readonly #start: Config;
  readonly #options: SessionModelsOptions;
  #config: Config;
  #setup: ModelSetup;
  /** Estimates requests to the current model; a new model gets a new one (another tokenizer). */
  #gauge: RequestGauge;
  #fallback?: { setup: ModelSetup; label: string };
  /** Every key used so far, the start's first; tools read it when they are built. */
  readonly secrets: string[];

  constructor(start: Config, options: SessionModelsOptions) {
    this.#start = start;
    this.#options = options;
    this.#config = start;
    this.#setup = this.#build(start);
    this.#gauge = new RequestGauge(this.#setup.client);
    this.secrets = start.apiKey ? [start.apiKey] : [];
  }

  /** The configuration in force (run settings included). */
  get config(): Config {
    return this.#config;
  }

  /** The current model's client and facts. */
  get setup(): ModelSetup {
    return this.#setup;
  }

  /** The current model's request gauge. */
  get gauge(): RequestGauge {
    return this.#gauge;
  }

  /** Where `request` leads from here, by the key rule (see `switchProvider`); throws a ConfigError. */
  async resolve(request: ModelRequest): Promise<Config> {
    return await switchProvider(this.#config, request, this.#options.env, this.#start);
  }

  /** Makes `config` the model from now on; true when it brought a key not used before. */
  use(config: Config): boolean {
    this.#config = config;
    this.#setup = this.#build(config);
    this.#gauge = new RequestGauge(this.#setup.client);
    return this.#remember(config.apiKey);
  }

  /** Resolves `--fallback` once, at start; a ConfigError names the flag. */
  async setFallback(request: ModelRequest): Promise<void> {
    try {
      const target = await this.resolve(request);
      this.#fallback = { setup: this.#build(target), label: `${target.provider}/${target.model}` };
      this.#remember(target.apiKey);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`--fallback: ${error.message}`);
      throw error;
    }
  }

  /** The loop's options that follow the model: client, window, gauge, words for failures, retries, fallback. */
  loopOptions(): Pick<
    LoopOptions,
    "client" | "model" | "contextWindow" | "gauge" | "provider" | "retry" | "fallback"
  > {
    const { client, info, provider, retry } = this.#setup;
    const fallback = this.#fallback &&
      {
        client: this.#fallback.setup.client,
        model: this.#fallback.setup.info.model,
        label: this.#fallback.label,
      };
    return {
      client,
      model: info.model,
      contextWindow: info.contextWindow,
      gauge: this.#gauge,
      provider,
      retry,
      fallback,
    };
  }

  #build(config: Config): ModelSetup {
    const { contextWindow, advise, env } = this.#options;
    return modelSetup(config, { contextWindow, advise, images: env.TERN_IMAGES });
  }

  #remember(key: string | undefined): boolean {
    if (key === undefined || this.secrets.includes(key)) return false;
    this.secrets.push(key);
    return true;
  }
}
