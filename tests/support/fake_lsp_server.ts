/**
 * A small language server for tests, run as a real process (`deno run fake_lsp_server.ts`): it answers
 * `initialize` and publishes one error for each line of a document holding `ERROR: message`. What a document
 * holds also drives the faults: `HANG` publishes nothing, `CRASH` exits at once (saying so on stderr),
 * `GARBAGE` sends a frame without Content-Length. `--no-version` publishes without the document's version;
 * `--pull` offers `textDocument/diagnostic` and answers it, while its pushes (which tern must ignore then)
 * say every document is clean.
 */
const withVersion = !Deno.args.includes("--no-version");
const pull = Deno.args.includes("--pull");
const texts = new Map<string, string>();
const encoder = new TextEncoder();

function send(message: unknown): void {
  const body = encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message as object }));
  Deno.stdout.writeSync(encoder.encode(`Content-Length: ${body.length}\r\n\r\n`));
  Deno.stdout.writeSync(body);
}

function errors(text: string) {
  return text.split("\n").flatMap((line, i) => {
    const at = line.indexOf("ERROR: ");
    if (at < 0) return [];
    const range = { start: { line: i, character: at }, end: { line: i, character: line.length } };
    return [{ range, severity: 1, message: line.slice(at + 7), code: "E1", source: "fake" }];
  });
}

function check(uri: string, version: number, text: string): void {
  texts.set(uri, text);
  if (text.includes("CRASH")) {
    console.error("fake server: crashing as the document asked");
    Deno.exit(3);
  }
  if (text.includes("GARBAGE")) return void Deno.stdout.writeSync(encoder.encode("Bogus: 1\r\n\r\n{}"));
  if (text.includes("HANG")) return;
  const diagnostics = pull ? [] : errors(text);
  const params = { uri, diagnostics, ...(withVersion && { version }) };
  send({ method: "textDocument/publishDiagnostics", params });
}

function handle(message: { id?: number; method?: string; params: Record<string, unknown> }): void {
  const { id, method, params } = message;
  if (method === "initialize") {
    const capabilities = { textDocumentSync: 1, ...(pull && { diagnosticProvider: {} }) };
    return send({ id, result: { capabilities } });
  }
  if (method === "textDocument/diagnostic") {
    const uri = (params.textDocument as { uri: string }).uri;
    return send({ id, result: { kind: "full", items: errors(texts.get(uri) ?? "") } });
  }
  if (method === "shutdown") return send({ id, result: null });
  if (method === "exit") Deno.exit(0);
  if (method === "textDocument/didOpen") {
    const doc = params.textDocument as { uri: string; version: number; text: string };
    return check(doc.uri, doc.version, doc.text);
  }
  if (method === "textDocument/didChange") {
    const doc = params.textDocument as { uri: string; version: number };
    const [change] = params.contentChanges as { text: string }[];
    return check(doc.uri, doc.version, change.text);
  }
}

let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  while (true) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) break;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.slice(0, end))?.[1]);
    // The test's texts are ASCII: characters and bytes agree.
    if (buffer.length < end + 4 + length) break;
    handle(JSON.parse(buffer.slice(end + 4, end + 4 + length)));
    buffer = buffer.slice(end + 4 + length);
  }
}
