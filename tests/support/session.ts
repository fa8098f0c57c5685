/** An AgentSession for tests of what sits on it (slash commands, front ends), on a temp project. */
import { AgentSession } from "../../src/agent/agent_session.ts";
import type { AgentSessionOptions } from "../../src/agent/agent_session_options.ts";
import type { Config } from "../../src/config/config.ts";

/** A configuration as `loadConfig` would build it for DeepSeek with a key; `overrides` change any field. */
export function testConfig(root: string, overrides: Partial<Config> = {}): Config {
  return {
    root,
    provider: "deepseek",
    label: "DeepSeek",
    model: "deepseek-chat",
    baseUrl: "http://127.0.0.1:9",
    api: "chat",
    apiKey: "sk-test",
    contextWindow: 128_000,
    approve: "ask",
    sandbox: "off",
    output: "text",
    warnings: [],
    ...overrides,
  };
}

/** A session on `root` that saves nothing and takes no snapshots unless `options` say so. */
export async function testSession(
  root: string,
  options: Omit<Partial<AgentSessionOptions>, "config"> & { config?: Partial<Config> } = {},
): Promise<AgentSession> {
  const { config, ...rest } = options;
  return await AgentSession.create({
    version: "test",
    env: {},
    save: false,
    ...rest,
    config: testConfig(root, config),
  });
}
