import { inflateRawSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";
import { RagciError } from "../../core/errors.js";

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
    let text: Buffer;
    if (method === STORED) text = data;
    else if (method === DEFLATE) text = inflateRawSync(data);
    else if (method === ZSTD) text = Buffer.from(zstdDecompress(data));
    else throw unreadableZip(file, `member ${name} uses compression method ${method}`);
    if (text.length !== size) throw unreadableZip(file, `member ${name} is truncated`);
    try {
      members.set(name, JSON.parse(text.toString("utf8")));
    } catch {
      throw unreadableZip(file, `member ${name} is not JSON`);
    }
  }
  return members;
}
