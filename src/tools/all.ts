/** The built-in tool set. */

import { editFileTool } from "./edit_file.ts";
import { executeCommandTool } from "./execute_command.ts";
import { listDirTool } from "./list_dir.ts";
import { readFileTool } from "./read_file.ts";
import type { Tool } from "./tool.ts";
import { writeFileTool } from "./write_file.ts";

/** The five built-in tools: read_file, write_file, edit_file, list_dir, execute_command. */
export function builtinTools(): Tool[] {
  return [readFileTool, writeFileTool, editFileTool, listDirTool, executeCommandTool];
}
