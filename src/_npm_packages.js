// @ts-self-types="./_npm_packages.d.ts"
// Every npm package src/npm.ts loads, as imports Deno can see. tern never imports this module: it is the
// one `deno compile` is given (--include) to embed the packages, and `deno task install` caches them with.
// Kept equal to npm.ts's list by tests/main_offline_test.ts.
import "@agentclientprotocol/sdk";
import "@inquirer/prompts";
import "@joplin/turndown-plugin-gfm";
import "@modelcontextprotocol/sdk/client/index.js";
import "@modelcontextprotocol/sdk/client/stdio.js";
import "@modelcontextprotocol/sdk/client/streamableHttp.js";
import "@mozilla/readability";
import "diff";
import "highlight.js/lib/common";
import "ignore";
import "linkedom";
import "marked";
import "picomatch";
import "turndown";
