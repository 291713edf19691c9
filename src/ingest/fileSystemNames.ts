import { basename } from "node:path";
import { optionRef, RagciError } from "../core/errors.js";

/** A file's system when each file holds one system: its name without the extension(s). */
export function fileSystemName(file: string): string {
  return basename(file).replace(/\.[^.]+(\.gz|\.zst)?$/, "");
}

/**
 * The systems of one file per system, in the files' order. Refused: two files that would be
 * one system (`a/run.csv` and `b/run.csv` are both "run", and their rows would be pooled),
 * a system column named with --system (each file's system is its name), and systems asked
 * for (--system COL=A,B) that no file is.
 */
export function fileSystemNames(
  files: readonly string[],
  systemColumn: string | null | undefined,
  onlySystems: readonly string[] | null | undefined,
): string[] {
  const names = files.map(fileSystemName);
  const listed = names.join(", ");
  names.forEach((name, i) => {
    const j = names.indexOf(name);
    if (j < i) {
      throw new RagciError(
        "invalid-option",
        `${files[j]} and ${files[i]} would both be system "${name}" (one file per system is named after its file): rename one, or give one file with a system column`,
        { file: files[i] as string },
      );
    }
  });
  const missing = (onlySystems ?? []).filter((s) => !names.includes(s));
  if (missing.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("system")}: with one file per system the systems are the files' names (${listed}), and ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} none of them; name those, or leave ${optionRef("system")} out`,
      { option: "system" },
    );
  }
  if (systemColumn && !onlySystems) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("system")} ${systemColumn}: with one file per system each file's system is its name (${listed}), not a column's; leave ${optionRef("system")} out`,
      { option: "system" },
    );
  }
  return names;
}
