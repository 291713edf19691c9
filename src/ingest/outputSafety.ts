import { constants } from "node:fs";
import { access, lstat, readlink, realpath, stat } from "node:fs/promises";
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
 * Whether `path` names a device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named pipe):
 * written in place, since renaming a file over it would replace it with a regular file.
 */
export async function isSpecialFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && !info.isFile() && !info.isDirectory();
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
    // A device or pipe is no input's file and keeps nothing: several outputs may share it.
    if (await isSpecialFile(output.path)) continue;
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
    // The temporary file is written beside the target, then renamed over it: checked here,
    // so that a run never computes for minutes and then cannot write.
    const directory = dirname(target);
    if (!(await stat(directory)).isDirectory()) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: ${directory} is a file, not a directory; choose another path`,
      );
    }
    const writable = await access(directory, constants.W_OK).then(
      () => true,
      () => false,
    );
    if (!writable) {
      throw new RagciError(
        "invalid-option",
        `${output.flag} ${output.path}: cannot write in ${directory} (permission denied); choose another directory`,
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
