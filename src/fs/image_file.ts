/**
 * Image files for the model: a PNG, JPEG, GIF or WebP inside the root, read through the path guard like any
 * file, recognised by its bytes (not its name), measured from its header, and refused over 5 MB.
 */
import { extname } from "./path.ts";
import { readCapped, resolveForRead, withCleanErrors } from "./path_guard.ts";
import { changedError, showPath } from "./path_basics.ts";
import { openNoBlock, verifyOpened } from "./opened_file.ts";
import { ToolError } from "./tool_error.ts";

/** The largest image sent to a model (Anthropic's own limit per image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image formats every image-reading model takes. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** Names that are read as images. */
const IMAGE_NAMES = /\.(png|jpe?g|gif|webp)$/i;

/** An image file as read: where it is, what it is, and its bytes as base64. */
export interface ImageFile {
  rel: string;
  mediaType: ImageType;
  /** Size in bytes on disk. */
  bytes: number;
  /** From the header, when it says (undefined for a header tern does not parse). */
  width?: number;
  height?: number;
  /** The bytes, base64. */
  data: string;
}

/** True when `path` names an image by its extension (.png, .jpg, .jpeg, .gif, .webp). */
export function isImageName(path: string): boolean {
  return IMAGE_NAMES.test(extname(path));
}

/**
 * Reads the image at `path` inside `root` through the guard (no symlink out, no special file, checked after
 * the open). Throws ToolError: over 5 MB (`too_large`), or bytes that are not a PNG, JPEG, GIF or WebP.
 */
export async function readImageFile(root: string, path: string): Promise<ImageFile> {
  let guarded;
  try {
    guarded = await resolveForRead(root, path);
  } catch (error) {
    if (error instanceof ToolError && error.kind === "too_large") throw tooLarge(path);
    throw error;
  }
  const { real, rel, info } = guarded;
  if (info.size > MAX_IMAGE_BYTES) throw tooLarge(rel, info.size);
  const bytes = await withCleanErrors(rel, async () => {
    await using file = await openNoBlock(real);
    await verifyOpened(root, real, rel, file.info);
    if (file.info.dev !== info.dev || file.info.ino !== info.ino) throw changedError(rel);
    return await readCapped(file, info.size, rel);
  });
  if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge(rel, bytes.length);
  const sniffed = sniffImage(bytes);
  if (!sniffed) {
    throw new ToolError(
      `${showPath(rel)}: not a PNG, JPEG, GIF or WebP image (its first bytes are not one's header).`,
      "binary",
    );
  }
  return { rel, ...sniffed, bytes: bytes.length, data: bytes.toBase64() };
}

/** "PNG image, 800×600 pixels, 12.1 KB". */
export function describeImage(image: Pick<ImageFile, "mediaType" | "width" | "height" | "bytes">): string {
  const format = image.mediaType.slice("image/".length).toUpperCase();
  const size = image.width && image.height ? `, ${image.width}×${image.height} pixels` : "";
  const kb = image.bytes < 1024
    ? `${image.bytes} bytes`
    : image.bytes < 1024 * 1024
    ? `${(image.bytes / 1024).toFixed(1)} KB`
    : `${(image.bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${format} image${size}, ${kb}`;
}

function tooLarge(rel: string, bytes?: number): ToolError {
  const size = bytes === undefined ? "over 10 MB" : `${bytes.toLocaleString("en-US")} bytes`;
  return new ToolError(
    `${showPath(rel)}: the image is ${size}; images over 5 MB (${MAX_IMAGE_BYTES.toLocaleString("en-US")} ` +
      "bytes) are not sent to the model. Make a smaller copy (scaled down, or saved as JPEG) and read that.",
    "too_large",
  );
}

/** The format and size of an image from its first bytes; undefined when they are not a known header. */
export function sniffImage(
  bytes: Uint8Array,
): { mediaType: ImageType; width?: number; height?: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 24 && ascii(1, 8) === "PNG\r\n\x1a\n" && bytes[0] === 0x89) {
    return { mediaType: "image/png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(ascii(0, 6))) {
    return { mediaType: "image/gif", width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") {
    return { mediaType: "image/webp", ...webpSize(bytes, ascii(12, 16)) };
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { mediaType: "image/jpeg", ...jpegSize(bytes, view) };
  }
  return undefined;
}

function webpSize(b: Uint8Array, chunk: string): { width?: number; height?: number } {
  if (chunk === "VP8 " && b.length >= 30) {
    return { width: (b[26] | b[27] << 8) & 0x3fff, height: (b[28] | b[29] << 8) & 0x3fff };
  }
  if (chunk === "VP8L" && b.length >= 25) {
    const width = 1 + (((b[22] & 0x3f) << 8) | b[21]);
    const height = 1 + (((b[24] & 0x0f) << 10) | (b[23] << 2) | ((b[22] & 0xc0) >> 6));
    return { width, height };
  }
  if (chunk === "VP8X" && b.length >= 30) {
    return { width: 1 + (b[24] | b[25] << 8 | b[26] << 16), height: 1 + (b[27] | b[28] << 8 | b[29] << 16) };
  }
  return {};
}

/** Walks the JPEG's segments to its frame header (SOF0–SOF15 but DHT, JPG and DAC), which holds the size. */
function jpegSize(b: Uint8Array, view: DataView): { width?: number; height?: number } {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return {};
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + (marker >= 0xd0 && marker <= 0xd9 ? 0 : view.getUint16(at + 2));
  }
  return {};
}
