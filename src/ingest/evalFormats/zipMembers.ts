import { inflateRawSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";
import { RagciError } from "../../core/errors.js";
import { parsePythonJson } from "./pythonJson.js";

/** ZIP compression methods an Inspect `.eval` log uses: stored, deflate, Zstandard (93). */
const STORED = 0;
const DEFLATE = 8;
const ZSTD = 93;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_END_LOCATOR = 0x07064b50;

function unreadableZip(file: string, why: string): RagciError {
  return new RagciError("unreadable-input", `${file}: not a readable .eval (zip) log: ${why}`, {
    file,
  });
}

/** A member whose bytes do not decode to what the directory says: the file was damaged. */
function damagedMember(file: string, name: string, why: string): RagciError {
  return new RagciError(
    "unreadable-input",
    `${file}: the .eval log is damaged: member ${name} ${why}; re-run the eval (or copy the log again, if it was damaged on the way)`,
    { file },
  );
}

/** zlib's and fzstd's messages, on one line ("invalid code -- missing end-of-block"). */
function decoderMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim() || "no reason given";
}

/** The zip's CRC-32 (the IEEE polynomial, reflected), table built once. */
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Offset of the end-of-central-directory record (it ends the file, before a comment ≤ 64 KiB). */
function endOfDirectory(bytes: Buffer, file: string): number {
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= earliest; at--)
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  throw unreadableZip(file, "no end-of-directory record");
}

/** Sizes and offset of a member, reading the ZIP64 extra field where the 32-bit ones overflow. */
function zip64Values(extra: Buffer, wanted: readonly boolean[]): number[] {
  const out: number[] = [];
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      for (const want of wanted) {
        if (!want) continue;
        out.push(Number(extra.readBigUInt64LE(field)));
        field += 8;
      }
      return out;
    }
    at += 4 + size;
  }
  return out;
}

/**
 * The JSON members of a zip (an Inspect `.eval` log), parsed; other members are skipped.
 * Reads the central directory, so members written after a rewrite are the ones that count.
 */
export function zipJsonMembers(bytes: Buffer, file: string): Map<string, unknown> {
  const end = endOfDirectory(bytes, file);
  let entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  if (offset === 0xffffffff || entries === 0xffff) {
    const locator = end - 20;
    if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_END_LOCATOR)
      throw unreadableZip(file, "a ZIP64 archive without its locator");
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    entries = Number(bytes.readBigUInt64LE(record + 32));
    offset = Number(bytes.readBigUInt64LE(record + 48));
  }
  const members = new Map<string, unknown>();
  for (let i = 0, at = offset; i < entries; i++) {
    if (bytes.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw unreadableZip(file, "a damaged central directory");
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    let compressed = bytes.readUInt32LE(at + 20);
    let size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    let local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    const wide = [size === 0xffffffff, compressed === 0xffffffff, local === 0xffffffff];
    if (wide.some(Boolean)) {
      const values = zip64Values(extra, wide);
      if (wide[0]) size = values.shift() ?? size;
      if (wide[1]) compressed = values.shift() ?? compressed;
      if (wide[2]) local = values.shift() ?? local;
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (!name.endsWith(".json")) continue;
    if (bytes.readUInt32LE(local) !== LOCAL_HEADER)
      throw unreadableZip(file, `member ${name} has no local header`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + compressed);
    if (method !== STORED && method !== DEFLATE && method !== ZSTD)
      throw unreadableZip(file, `member ${name} uses compression method ${method}`);
    let text: Buffer;
    try {
      text =
        method === STORED
          ? data
          : method === DEFLATE
            ? inflateRawSync(data)
            : Buffer.from(zstdDecompress(data));
    } catch (error) {
      throw damagedMember(file, name, `does not decompress (${decoderMessage(error)})`);
    }
    if (text.length !== size)
      throw damagedMember(
        file,
        name,
        `decompresses to ${text.length} bytes, not the ${size} its directory gives`,
      );
    if (crc32(text) !== crc)
      throw damagedMember(file, name, "does not match its checksum (CRC-32)");
    try {
      members.set(name, parsePythonJson(text.toString("utf8")));
    } catch {
      throw unreadableZip(file, `member ${name} is not JSON`);
    }
  }
  return members;
}
