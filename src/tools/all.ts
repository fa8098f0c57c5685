/** The built-in tool set. */

import { editFileTool } from "./edit_file.ts";
import { executeCommandTool } from "./execute_command.ts";
import { globFilesTool } from "./glob_files.ts";
import { grepCodeTool } from "./grep_code.ts";
import { listDirTool } from "./list_dir.ts";
import { readFileTool } from "./read_file.ts";
import type { Tool } from "./tool.ts";
import { writeFileTool } from "./write_file.ts";

/** The built-in tools: read_file, write_file, edit_file, list_dir, glob_files, grep_code, execute_command. */
export function builtinTools(): Tool[] {
  return [
    readFileTool,
    writeFileTool,
    editFileTool,
    listDirTool,
    globFilesTool,
    grepCodeTool,
    executeCommandTool,
  ];
}
