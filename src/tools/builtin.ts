/** The built-in tool set, built with the settings of one conversation. */

import type { SandboxMode } from "../config/settings.ts";
import { createEditFileTool } from "./edit_file.ts";
import { createExecuteCommandTool } from "./execute_command.ts";
import type { SandboxDetector } from "./shell/sandbox.ts";
import type { BackgroundProcesses } from "./shell/background.ts";
import { createCommandOutputTool } from "./command_output.ts";
import { createCommandKillTool } from "./command_kill.ts";
import { globFilesTool } from "./glob_files.ts";
import { grepCodeTool } from "./grep_code.ts";
import { listDirTool } from "./list_dir.ts";
import { createReadFileTool } from "./read_file.ts";
import type { FileTracker, Tool } from "./tool.ts";
import { createWriteFileTool } from "./write_file.ts";
import { createWebFetchTool, type WebFetchOptions } from "./web_fetch.ts";
import { createProviderSearchTool, createWebSearchTool } from "./web_search.ts";
import type { SearchBackend } from "./web/search_backends.ts";

/** What the built-in tools are built with. */
export interface BuiltinOptions {
  /** The conversation's memory of files read (the stale-write guard); absent = no guard. */
  files?: FileTracker;
  /**
   * How commands run: sandbox mode, secrets to redact, (tests) how bubblewrap is detected, and the session's
   * background processes (execute_command's `background`, command_output and command_kill come with them).
   */
  shell?: {
    sandbox?: SandboxMode;
    secrets?: string[];
    detect?: SandboxDetector;
    background?: BackgroundProcesses;
  };
  /** How web_fetch reaches the web (local addresses only with `allowLocal`); web_search only with `search`. */
  web?: WebFetchOptions & { search?: SearchBackend | "provider" };
  /** Whether the model now answering reads images (read_file then returns them); absent = it does not. */
  images?: () => boolean;
}

/**
 * The built-in tools: read_file, write_file, edit_file, list_dir, glob_files, grep_code, execute_command,
 * web_fetch; web_search with a search back-end; command_output and command_kill with background processes.
 */
export function builtinTools(options: BuiltinOptions = {}): Tool[] {
  const { files, shell, web, images } = options;
  const background = shell?.background;
  return [
    createReadFileTool({ files, images }),
    createWriteFileTool({ files }),
    createEditFileTool({ files }),
    listDirTool,
    globFilesTool,
    grepCodeTool,
    createExecuteCommandTool(shell),
    createWebFetchTool(web),
    ...web?.search
      ? [web.search === "provider" ? createProviderSearchTool() : createWebSearchTool(web.search)]
      : [],
    ...background ? [createCommandOutputTool(background), createCommandKillTool(background)] : [],
  ];
}
