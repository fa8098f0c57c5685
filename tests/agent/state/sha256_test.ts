import { assertEquals } from "../../support/assert.ts";
import { hex, sha256 } from "../../../src/agent/state/sha256.ts";

Deno.test("sha256() gives FIPS 180-4's digests, across block edges and in UTF-8", () => {
  assertEquals(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assertEquals(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assertEquals(
    hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assertEquals(
    hex(sha256("a".repeat(1_000_000))),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
  assertEquals(hex(sha256("é")), hex(sha256(new Uint8Array([0xc3, 0xa9]))));
});
