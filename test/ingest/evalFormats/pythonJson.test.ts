import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parsePythonJson } from "../../../src/ingest/evalFormats/pythonJson.js";
import { zipJsonMembers } from "../../../src/ingest/evalFormats/zipMembers.js";

/** A zip of stored (uncompressed) members, as a minimal writer lays it out. */
function storedZip(members: Readonly<Record<string, string>>): Buffer {
  const locals: Buffer[] = [];
  const entries: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(members)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    entries.push(entry, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(entries);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(members).length, 8);
  end.writeUInt16LE(Object.keys(members).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("JSON as Python writes it (hand-written texts): the constants NaN and ±Infinity", () => {
  it("reads the bare constants as numbers and leaves strings that name them alone", () => {
    const value = parsePythonJson(
      '{"a": NaN, "b": [Infinity, -Infinity, 1.5], "c": "NaN and Infinity", "d": "say \\"NaN\\""}',
    ) as Record<string, unknown>;
    expect(Number.isNaN(value.a)).toBe(true);
    expect(value.b).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5]);
    expect(value.c).toBe("NaN and Infinity");
    expect(value.d).toBe('say "NaN"');
  });

  it("still refuses text that is not JSON with the constants read", () => {
    expect(() => parsePythonJson('{"a": NaN,')).toThrow(SyntaxError);
    expect(() => parsePythonJson("{nan: 1}")).toThrow(SyntaxError);
  });

  it("a .eval member holding NaN is read (it was 'member … is not JSON')", () => {
    const zip = storedZip({
      "samples/1_epoch_1.json": '{"id": 1, "scores": {"m": {"value": NaN}}}',
    });
    const sample = zipJsonMembers(zip, "nan.eval").get("samples/1_epoch_1.json") as {
      scores: { m: { value: number } };
    };
    expect(Number.isNaN(sample.scores.m.value)).toBe(true);
  });
});
