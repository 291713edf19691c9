import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { RagciError } from "../core/errors.js";
import { isSpecialFile, writeTargetOf } from "./outputSafety.js";

/** A temporary path beside `target`, so the final rename stays on one file system. */
export function temporaryPathBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Writes through a temporary file then renames it over `target`: readers see the old file
 * or the new one, never a partial write. `produce` writes the temporary path. A symbolic
 * link is followed: its target is replaced and the link kept. A device, FIFO or socket
 * (`-o /dev/null`, a named pipe) is written in place: renaming over it would replace it.
 */
export async function writeAtomicWith(
  target: string,
  produce: (temporary: string) => Promise<void>,
): Promise<void> {
  if (await isSpecialFile(target)) {
    await produce(target).catch((error) => refuseWrite(target, error));
    return;
  }
  const destination = await writeTargetOf(target);
  const temporary = temporaryPathBeside(destination);
  try {
    await produce(temporary);
    await rename(temporary, destination);
  } catch (error) {
    await rm(temporary, { force: true });
    refuseWrite(target, error);
  }
}

function refuseWrite(target: string, error: unknown): never {
  if (error instanceof RagciError) throw error;
  const reason = error instanceof Error ? error.message : String(error);
  throw new RagciError("unreadable-input", `${target}: cannot write it (${reason})`, {
    file: target,
  });
}

export function writeFileAtomic(target: string, contents: string): Promise<void> {
  return writeAtomicWith(target, (temporary) => writeFile(temporary, contents));
}
