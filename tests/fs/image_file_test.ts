import { assertEquals, assertRejects } from "../support/assert.ts";
import { describeImage, isImageName, readImageFile, sniffImage } from "../../src/fs/image_file.ts";
import { ToolError } from "../../src/fs/tool_error.ts";
import { tempProject } from "../support/temp_project.ts";

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((v) => typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v]));

Deno.test("sniffImage() reads the format and size of PNG, GIF, JPEG and the three WebP headers", () => {
  assertEquals(sniffImage(bytesOf(PNG_1X1)), { mediaType: "image/png", width: 1, height: 1 });
  assertEquals(sniffImage(bytes("GIF89a", 0x20, 0x03, 0x58, 0x02)), {
    mediaType: "image/gif",
    width: 800,
    height: 600,
  });
  // SOI, an APP0 segment of 4 bytes, then SOF0 with height 600 and width 800.
  const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0x02, 0x58, 0x03, 0x20, 3);
  assertEquals(sniffImage(jpeg), { mediaType: "image/jpeg", width: 800, height: 600 });
  const riff = (chunk: string, body: number[]) =>
    bytes("RIFF", 0, 0, 0, 0, "WEBP", chunk, ...new Array(30 - 16 - body.length).fill(0), ...body);
  // VP8X: 24-bit width-1 and height-1 at bytes 24 and 27.
  assertEquals(sniffImage(riff("VP8X", [0x1f, 0x03, 0, 0x57, 0x02, 0])), {
    mediaType: "image/webp",
    width: 800,
    height: 600,
  });
  // VP8 (lossy): 14-bit width and height at bytes 26 and 28.
  assertEquals(sniffImage(riff("VP8 ", [0x20, 0x03, 0x58, 0x02])), {
    mediaType: "image/webp",
    width: 800,
    height: 600,
  });
  // VP8L (lossless): 14-bit width-1 and height-1 packed from byte 21.
  assertEquals(sniffImage(riff("VP8L", [0x1f, 0xc3, 0x95, 0x00, 0, 0, 0, 0, 0])), {
    mediaType: "image/webp",
    width: 800,
    height: 600,
  });
  assertEquals(sniffImage(bytes("%PDF-1.7 not an image at all")), undefined);
});

Deno.test("isImageName() and describeImage() say what an image is", () => {
  assertEquals(["a.PNG", "b.jpeg", "c.jpg", "d.gif", "e.webp", "f.svg", "png"].map(isImageName), [
    true,
    true,
    true,
    true,
    true,
    false,
    false,
  ]);
  assertEquals(
    describeImage({ mediaType: "image/jpeg", width: 800, height: 600, bytes: 123_456 }),
    "JPEG image, 800×600 pixels, 120.6 KB",
  );
});

Deno.test("readImageFile() returns the bytes as base64 and refuses what is not an image or too large", async () => {
  await using project = await tempProject({ "fake.png": "just text\n" });
  await Deno.writeFile(`${project.root}/shot.png`, bytesOf(PNG_1X1));
  await Deno.writeFile(`${project.root}/big.png`, new Uint8Array(5 * 1024 * 1024 + 1));
  const image = await readImageFile(project.root, "shot.png");
  assertEquals(image, {
    rel: "shot.png",
    mediaType: "image/png",
    width: 1,
    height: 1,
    bytes: 70,
    data: PNG_1X1,
  });
  const notImage = await assertRejects(() => readImageFile(project.root, "fake.png"), ToolError);
  assertEquals(
    notImage.message,
    `"fake.png": not a PNG, JPEG, GIF or WebP image (its first bytes are not one's header).`,
  );
  const big = await assertRejects(() => readImageFile(project.root, "big.png"), ToolError);
  assertEquals(big.kind, "too_large");
  await Deno.symlink(`${project.outside}/secret.txt`, `${project.root}/out.png`);
  const outside = await assertRejects(() => readImageFile(project.root, "out.png"), ToolError);
  assertEquals(outside.kind, "outside_root");
});
