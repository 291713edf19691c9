import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { RagciError } from "../core/errors.js";

/** A file a run writes, with the flag that named it (for the message). */
export interface NamedOutput {
  readonly flag: string;
  readonly path: string;
}

/** Symbolic links followed before giving up (Linux's own limit, MAXSYMLINKS). */
const MAX_LINKS = 40;

/**
 * The path a write to `path` lands on: symbolic links followed to their target, even a
 * dangling one, so a report written "to the link" replaces the target, not the link.
 */
export async function writeTargetOf(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    const info = await lstat(current).catch(() => null);
    if (!info?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new RagciError("invalid-option", `${path}: too many levels of symbolic links`);
}

/**
 * What identifies the file a path names: device and inode when it exists (so hard links,
 * symbolic links and every spelling agree), otherwise its real directory and name.
 */
async function identity(path: string): Promise<string | null> {
  const target = await writeTargetOf(path);
  const info = await stat(target).catch(() => null);
  if (info) return `inode ${info.dev}:${info.ino}`;
  const directory = await realpath(dirname(target)).catch(() => null);
  return directory === null ? null : `path ${join(directory, basename(target))}`;
}

/**
 * Refuses, before anything is read, a run whose outputs would overwrite one of its inputs or
 * each other, or cannot be written where named. `-` (stdin) is not a file and is skipped.
 */
export async function refuseUnsafeOutputs(
  inputs: readonly string[],
  outputs: readonly NamedOutput[],
): Promise<void> {
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    if (input === "-") continue;
    const id = await identity(input);
    if (id !== null && !inputIds.has(id)) inputIds.set(id, input);
  }
  const outputIds = new Map<string, NamedOutput>();
  for (const output of outputs) {
    const target = await writeTargetOf(output.path);
    const info = await stat(target).catch(() => null);
    if (info?.isDirectory()) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: is a directory; give a file name`,
      );
    }
    const id = await identity(output.path);
    if (id === null) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: directory ${dirname(target)} does not exist; create it or choose another path`,
      );
    }
    const input = inputIds.get(id);
    if (input !== undefined) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: is the same file as the input ${input}; ragci never overwrites its input, choose another file name`,
      );
    }
    const other = outputIds.get(id);
    if (other !== undefined) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: is also the file of ${other.flag} ${other.path}; give each output its own file`,
      );
    }
    outputIds.set(id, output);
  }
}
