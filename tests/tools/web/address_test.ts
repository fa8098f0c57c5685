import { assertEquals } from "../../support/assert.ts";
import { isLocalAddress, isLocalName } from "../../../src/tools/web/address.ts";

Deno.test("isLocalAddress() refuses loopback, private, link-local and reserved addresses", () => {
  const local = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fd00::1",
    "fc00::abcd",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "not-an-address",
  ];
  assertEquals(local.filter((address) => !isLocalAddress(address)), []);
});

Deno.test("isLocalAddress() allows public addresses", () => {
  const public_ = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];
  assertEquals(public_.filter(isLocalAddress), []);
});

Deno.test("isLocalName() knows localhost names", () => {
  assertEquals(["localhost", "LOCALHOST.", "app.localhost", "example.com"].map(isLocalName), [
    true,
    true,
    true,
    false,
  ]);
});
