import { RagciError } from "../../core/errors.js";
import type { EvalRow, RunIdentity } from "./evalRows.js";

/** One input's rows as its reader gave them. */
export interface InputRows {
  readonly file: string;
  readonly tool: string;
  readonly rows: readonly EvalRow[];
  readonly run?: RunIdentity;
}

/**
 * Keeps two runs apart: two inputs holding the same run are refused; when inputs of different
 * runs still hold a system of one name (Inspect: one task run twice in one run id), each
 * input's systems of that name get its run's label (the file's name), with a note. Inputs whose
 * reader records no run are left as they are.
 *
 * @throws RagciError naming both files when they hold the same run, or when the labels are equal
 */
export function distinctRuns(inputs: readonly InputRows[]): {
  rows: EvalRow[][];
  notes: string[];
} {
  const holders = new Map<string, number[]>();
  inputs.forEach((input, i) => {
    for (const system of new Set(input.rows.map((r) => r.system)))
      holders.set(system, [...(holders.get(system) ?? []), i]);
  });
  const renames = inputs.map(() => new Map<string, string>());
  const notes: string[] = [];
  for (const [system, at] of holders) {
    if (at.length < 2) continue;
    const group = at.map((i) => inputs[i] as InputRows);
    if (group.some((g) => g.run === undefined)) continue;
    const keys = new Map<string, string>();
    for (const g of group) {
      const key = (g.run as RunIdentity).key;
      const other = keys.get(key);
      if (other !== undefined)
        throw new RagciError(
          "invalid-value",
          `${g.file}: holds the same ${g.tool} run as ${other} (system ${system}); give one of the two files`,
          { file: g.file },
        );
      keys.set(key, g.file);
    }
    const labels = group.map((g) => (g.run as RunIdentity).label);
    if (new Set(labels).size < group.length)
      throw new RagciError(
        "invalid-value",
        `${group[0]?.file}: ${group.length} inputs of different runs hold system ${system} under one label (${labels[0]}); rename the files so that their runs can be told apart`,
        { file: group[0]?.file ?? "" },
      );
    at.forEach((i, k) => {
      renames[i]?.set(system, `${system} · ${labels[k]}`);
    });
    notes.push(
      `${group[0]?.tool}: ${group.length} inputs hold system ${system} (${group.map((g) => g.file).join(", ")}); each system is named with its input's label added (${labels.join(", ")}) to keep them apart`,
    );
  }
  return {
    rows: inputs.map((input, i) =>
      input.rows.map((r) => {
        const name = renames[i]?.get(r.system);
        return name === undefined ? r : { ...r, system: name };
      }),
    ),
    notes,
  };
}
