/**
 * A generated project tree for the tool bench: 50,000 files in a realistic shape. Packages of nested source
 * directories with small mixed files (TypeScript, TSX, Python, Markdown, JSON, CSS), a `.git` directory, a
 * root `node_modules` plus a few nested ones, build outputs listed in `.gitignore`, and nested `.gitignore`
 * files in some packages. Deterministic: the same seed gives the same tree, so runs compare.
 */

import { join } from "node:path";

/** Files the tree holds in all, searchable or not. */
export const TREE_FILES = 50_000;

/** The rare identifier planted in a few source files (and in ignored ones, which must not count). */
export const RARE_WORD = "legacyBridgeHandler";

/** Source files (searchable) that carry RARE_WORD. */
export const RARE_FILES = 25;

/** What was generated: counts and bytes, for the bench's headline. */
export interface TreeStats {
  files: number;
  /** Files that tern and a .gitignore-aware rg search: not in .git, node_modules or ignored dirs. */
  searchable: number;
  bytes: number;
}

/** A small, fast, seeded PRNG (mulberry32): the tree must be the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ("user order cache session token config render parse load store event queue route schema " +
  "client server buffer stream record index filter model").split(" ");

const EXTENSIONS = ["ts", "ts", "ts", "ts", "tsx", "py", "py", "md", "json", "css"];

/** Writes files through one place, counting them and their bytes. */
class Writer {
  files = 0;
  bytes = 0;
  #encoder = new TextEncoder();
  #made = new Set<string>();

  constructor(readonly root: string) {}

  write(rel: string, text: string): void {
    const slash = rel.lastIndexOf("/");
    const dir = slash === -1 ? "" : rel.slice(0, slash);
    if (dir !== "" && !this.#made.has(dir)) {
      Deno.mkdirSync(join(this.root, dir), { recursive: true });
      this.#made.add(dir);
    }
    const data = this.#encoder.encode(text);
    Deno.writeFileSync(join(this.root, rel), data);
    this.files++;
    this.bytes += data.length;
  }
}

/** One line of plausible code for `ext`, built from the word list. */
function codeLine(ext: string, rand: () => number, todo: boolean): string {
  const a = WORDS[Math.floor(rand() * WORDS.length)];
  const b = WORDS[Math.floor(rand() * WORDS.length)];
  const n = Math.floor(rand() * 1000);
  const comment = todo ? " // TODO: handle the empty case" : "";
  switch (ext) {
    case "py":
      return `    ${a}_${b} = load_${a}(${n}, key="${b}")${todo ? "  # TODO: retry" : ""}`;
    case "md":
      return `The ${a} ${b} step runs after ${n} items are ready.${todo ? " TODO: document limits." : ""}`;
    case "json":
      return `  "${a}${n}": "${b}",`;
    case "css":
      return `.${a}-${b} { margin: ${n % 40}px; }`;
    default:
      return `  const ${a}${n} = await ${b}Service.${a}(${n});${comment}`;
  }
}

/** A small source file of `ext`: 8–60 lines; some carry a TODO, a few the rare word. */
function sourceText(ext: string, rand: () => number, rare: boolean): string {
  const count = 8 + Math.floor(rand() * 53);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(codeLine(ext, rand, rand() < 0.01));
  if (rare) lines.splice(Math.floor(count / 2), 0, `  registry.use(${RARE_WORD}); // kept for old clients`);
  return `${lines.join("\n")}\n`;
}

/** Directories of one package: nested 1–4 levels below src/ and tests/. */
function packageDirs(pkg: string, rand: () => number): string[] {
  const dirs: string[] = [];
  const grow = (dir: string, depth: number) => {
    dirs.push(dir);
    if (depth === 4) return;
    const children = depth === 1 ? 4 + Math.floor(rand() * 4) : Math.floor(rand() * 4);
    for (let i = 0; i < children; i++) grow(`${dir}/${WORDS[(i * 7 + depth) % WORDS.length]}${i}`, depth + 1);
  };
  grow(`${pkg}/src`, 1);
  grow(`${pkg}/tests`, 3);
  return dirs;
}

/** What .gitignore keeps out, and what tern skips by name: written first, with fixed counts. */
function writeIgnored(writer: Writer, rand: () => number): void {
  writer.write(".gitignore", "node_modules/\ndist/\nbuild/\ncoverage/\n.cache/\n*.log\n");
  writer.write(".git/HEAD", "ref: refs/heads/main\n");
  writer.write(".git/config", "[core]\n\trepositoryformatversion = 0\n");
  for (let i = 0; i < 600; i++) {
    writer.write(`.git/objects/${(i % 256).toString(16).padStart(2, "0")}/${i.toString(16)}0f3e`, "x\u0001");
  }
  for (let p = 0; p < 300; p++) {
    for (let f = 0; f < 30; f++) {
      const rare = p % 60 === 0 && f === 0;
      writer.write(`node_modules/pkg-${p}/lib/mod${f}.js`, sourceText("js", rand, rare));
    }
  }
  for (let i = 0; i < 2500; i++) writer.write(`dist/chunk-${i}.js`, sourceText("js", rand, i % 500 === 0));
  for (let i = 0; i < 800; i++) {
    writer.write(`coverage/lcov-report/f${i}.html`, sourceText("md", rand, false));
  }
  for (let i = 0; i < 500; i++) writer.write(`.cache/tsbuild/${i}.json`, sourceText("json", rand, false));
}

/** Generates the tree under `root` (an empty directory) and says what it holds. */
export function generateTree(root: string): TreeStats {
  const rand = random(20_000);
  const writer = new Writer(root);
  writeIgnored(writer, rand);
  const packages = Array.from({ length: 30 }, (_, i) => `packages/p${String(i).padStart(2, "0")}`);
  const dirs = packages.flatMap((pkg) => packageDirs(pkg, rand));
  // Some packages have their own node_modules and a .gitignore of their own for generated code.
  for (const [i, pkg] of packages.entries()) {
    if (i % 6 !== 0) continue;
    writer.write(`${pkg}/.gitignore`, "generated/\n");
    for (let f = 0; f < 100; f++) writer.write(`${pkg}/generated/api${f}.ts`, sourceText("ts", rand, false));
    for (let f = 0; f < 60; f++) {
      writer.write(`${pkg}/node_modules/dep/x${f}.js`, sourceText("js", rand, false));
    }
  }
  const ignored = writer.files;
  const sources = TREE_FILES - ignored - packages.length;
  const rareEvery = Math.floor(sources / RARE_FILES);
  for (const pkg of packages) writer.write(`${pkg}/package.json`, `{ "name": "${pkg}", "private": true }\n`);
  for (let i = 0; i < sources; i++) {
    const ext = EXTENSIONS[Math.floor(rand() * EXTENSIONS.length)];
    const dir = dirs[Math.floor(rand() * dirs.length)];
    const name = `${WORDS[i % WORDS.length]}_${i}.${ext}`;
    writer.write(`${dir}/${name}`, sourceText(ext, rand, i % rareEvery === 0 && i / rareEvery < RARE_FILES));
  }
  return { files: writer.files, searchable: writer.files - ignored, bytes: writer.bytes };
}
