import { assertEquals } from "../../support/assert.ts";
import { sandboxLine } from "../../../src/cli/render/sandbox_words.ts";

Deno.test("sandboxLine() words each sandbox state for the banner, naming the flags where they help", () => {
  assertEquals(
    sandboxLine({ active: true, kind: "bubblewrap" }),
    "sandbox: bubblewrap (no network, writes only in the project)",
  );
  assertEquals(
    sandboxLine({ active: false, kind: "off" }),
    "sandbox: off — commands run unconfined and always ask",
  );
  assertEquals(
    sandboxLine({ active: false, kind: "unavailable", reason: "bubblewrap is not installed" }),
    "sandbox: unavailable (bubblewrap is not installed) — commands run unconfined and always ask",
  );
  assertEquals(
    sandboxLine({ active: false, kind: "refused", reason: "bubblewrap is not installed" }),
    "sandbox: required, but bubblewrap is not installed — commands are refused (install the Debian package " +
      "bubblewrap, or use --sandbox auto|off)",
  );
});
