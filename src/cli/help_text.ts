/** The text of `tern --help`. */
import { VERSION } from "./version.ts";

/** The text printed by `tern --help`. */
export const HELP_TEXT = `tern ${VERSION}: a coding agent in your terminal, sandboxed to the current directory

Usage:
  tern [options]            open an interactive session in this directory
  tern "TASK" [options]     the same, with TASK as its first message
  tern -p "TASK" [options]  run one task headless: the answer to stdout, progress to stderr
  tern acp [options]        serve editors over the Agent Client Protocol on stdin/stdout

Options:
  -p, --print TASK          run TASK without the interactive session; "-" reads TASK from stdin,
                            and input piped to tern is attached to TASK as context
      --output FORMAT       text (default), json (one object at the end) or stream-json
                            (one event a line, docs/stream-json.md); json and stream-json need
                            -p or --input-format stream-json (--output-format is the same)
      --input-format FORMAT text (default) or stream-json: stdin carries user messages and approval
                            answers as JSON lines, each message a turn of the same session, until
                            EOF; needs --output stream-json or json
      --approval-timeout DURATION
                            with --input-format stream-json: how long an approval question waits
                            for its answer on stdin before --approve decides (default 60s)
      --provider NAME       deepseek (default), openai, anthropic, gemini, groq, mistral, xai, glm,
                            kimi, qwen, openrouter, ollama, llamacpp, lmstudio, vllm
      --model NAME          the model to use (default: the provider's)
      --base-url URL        an endpoint (http or https) instead of the provider's
      --api WIRE            the wire format spoken there: chat (OpenAI-compatible chat completions),
                            responses (OpenAI Responses) or anthropic (Anthropic Messages);
                            default: the provider's
      --fallback PROVIDER[/MODEL]
                            when retries are exhausted on 429, 5xx or an overloaded server, that
                            model call continues on this provider and model (and says so)
      --require-tools LIST  comma-separated tools the model must call, in order, each until one
                            call of it succeeds (e.g. list_dir,read_file); then the model chooses
      --approve MODE        ask (default): confirm edits, and commands that run unsandboxed, want
                            the network or delete work (git clean -f, rm -r, ...); edits: edits run,
                            but protected paths (.git, .env, CI files) and those commands still ask;
                            all: confirm nothing; plan: plan mode (below)
      --mode MODE           the same as --approve; --mode plan starts in plan mode: only read-only
                            tools run, and the model ends by presenting a plan
      --sandbox MODE        auto (default): confine commands with bubblewrap when it is installed
                            (no network, writes only in the project); required: refuse commands
                            without it; off: run commands unconfined (they always ask)
      --max-turns N         stop after N model calls (exit 3)
      --token-budget N      stop after N tokens in total (exit 3)
      --time-limit DURATION stop after this much wall-clock time, e.g. 90s, 15m, 1h30m (exit 3)
      --trust-project       use what this project supplies without asking: its .env endpoint,
                            .mcp.json servers, .tern/settings.json allow rules, AGENTS.md/CLAUDE.md
                            as instructions, skills (otherwise the REPL asks once; -p goes on
                            without them)
      --trust-project-env   only let the project's .env choose the endpoint your own API key is sent to
  -c, --continue            continue the latest session of this project (with -p too)
  -r, --resume [ID|NAME]    continue session ID (or the one named NAME, or an id's prefix); without
                            one, pick from a list
      --fork                with -c or -r: continue a copy of that session, leaving it as it is
  -w, --worktree NAME       work in a git worktree of this repository on branch tern/NAME (made from
                            HEAD in .tern/local/worktrees/NAME the first time; its own sessions)
      --no-session          save nothing of this run under .tern/local/sessions/
      --context-window N    the model's context window in tokens (default: known models, else the
                            provider's); past about 80% older turns are summarised
      --trust-project-mcp   only start the MCP servers of this project's .mcp.json without asking
      --allow-local-fetch   let web_fetch reach loopback, private and link-local addresses
      --notify-command CMD  run CMD (bash -c) when the REPL waits for you and its terminal is not
                            focused; TERN_NOTIFY_TYPE and TERN_NOTIFY_MESSAGE say why
  -h, --help                show this help
  -v, --version             show the version

Environment (also read from .env in the project root; real variables win):
  TERN_PROVIDER, TERN_MODEL, TERN_BASE_URL, TERN_API
                            defaults for --provider, --model, --base-url, --api
  TERN_FIRST_BYTE_TIMEOUT   longest wait for a model's first byte, e.g. 5m (default 120s)
  TERN_NOTIFY, TERN_NOTIFY_AFTER
                            the REPL's nudge when it needs you and is not focused: bell, osc9,
                            osc777 or off (default bell,osc9); after turns of at least 30s
  TERN_API_KEY              the key for any provider; overrides the provider's own variable:
                            DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
                            GROQ_API_KEY, MISTRAL_API_KEY, XAI_API_KEY, ZHIPUAI_API_KEY (glm),
                            MOONSHOT_API_KEY (kimi), DASHSCOPE_API_KEY (qwen), OPENROUTER_API_KEY
  With no key set, tern uses a local Ollama (port 11434), llama.cpp (8080), LM Studio (1234) or vLLM
  (8000) server if one answers.

Sessions (saved as they happen in .tern/local/sessions/, inside the project):
  tern sessions             list this project's sessions, newest first
  tern sessions prune [--keep N]
                            delete all but the N newest (default 20)
  tern sessions export ID|NAME --format md|html|jsonl
                            print a session: conversation, reasoning, tool calls, results, diffs

Worktrees (git worktrees tern made with -w, /worktree or the task tool's isolation):
  tern worktrees            list them: branch, changed files, last session
  tern worktrees remove NAME [--force]
                            remove one (refused with uncommitted changes unless --force; the
                            branch is kept); never one tern did not make

Your own settings (.tern/local/settings.json: hooks, rules; sealed by tern, so a git pull cannot add any):
  tern config sign [--yes]  after editing it by hand: shows what it grants and seals it

Exit codes:
  0 done, 1 error, 2 bad usage, 3 stopped early (budget or loop guard; partial answer), 130 cancelled
`;
