import { open } from "node:fs/promises";

/**
 * The first `bytes` bytes of a file (all of it when shorter), read once: what the format, the
 * encoding, a CSV header or a JSON array's "[" is told from without reading the whole file.
 */
export async function fileStart(path: string, bytes = 1 << 16): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
