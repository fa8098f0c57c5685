/** Splits a text stream into lines (without their "\n" or "\r\n"), the last one even without a newline. */
export class TextLineStream extends TransformStream<string, string> {
  constructor() {
    let pending = "";
    super({
      transform(chunk, controller) {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop()!;
        for (const line of lines) controller.enqueue(line.replace(/\r$/, ""));
      },
      flush(controller) {
        if (pending !== "") controller.enqueue(pending);
      },
    });
  }
}
