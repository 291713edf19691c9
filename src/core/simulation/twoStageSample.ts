import { compareCodePoints } from "../aggregate/mergeDocumentStats.js";
import { groupIndices } from "../designs/groupIndices.js";
import { optionRef, RagciError } from "../errors.js";
import { choiceWithoutReplacement } from "../numeric/choiceWithoutReplacement.js";
import { createPcg64 } from "../numeric/pcg64.js";
import { plural } from "../plural.js";

/** A two-stage study's design: the census's first-stage units and how many are drawn. */
export interface StudyUnits {
  /** Unit names in code-point order (the order numpy's first-stage choice indexes). */
  readonly names: readonly string[];
  /** Census positions of each unit's documents, in census order. */
  readonly members: readonly (readonly number[])[];
  /** m, units drawn per sample (of T = names.length). */
  readonly sampledUnits: number;
  /** k, documents drawn in each drawn unit (all of a unit with fewer: k_i = min(k, M_i)). */
  readonly perUnit: number;
}

/**
 * The census's units (each document's label, aligned with the census) for a study drawing m
 * of them and k documents in each. A variance needs m ≥ 2, and the second-stage variance of a
 * unit needs k_i ≥ 2 wherever M_i ≥ 2, hence k ≥ 2.
 */
export function studyUnits(
  labels: readonly string[],
  sampledUnits: number,
  perUnit: number,
): StudyUnits {
  const byName = groupIndices(labels);
  const names = [...byName.keys()].sort(compareCodePoints);
  const T = names.length;
  if (!Number.isInteger(sampledUnits) || sampledUnits < 2 || sampledUnits > T) {
    throw new RagciError(
      "invalid-option",
      `${sampledUnits} units per sample: a two-stage study draws between 2 and the census's ${T} first-stage units`,
    );
  }
  if (!Number.isInteger(perUnit) || perUnit < 2) {
    throw new RagciError(
      "invalid-option",
      `${perUnit} documents per unit: give a whole number ≥ 2 (a unit's second-stage variance needs two of its documents)`,
    );
  }
  const members = names.map((name) => byName.get(name) as number[]);
  // Every unit drawn, and every document of each: every sample is the census (as K = M).
  const largest = Math.max(...members.map((m) => m.length));
  if (sampledUnits === T && perUnit >= largest) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("units")} ${sampledUnits} with ${optionRef("perUnit")} ${perUnit}: every sample is the whole census (all ${T} units, and no unit has more than ${plural(largest, "document")}), so a study cannot miss; draw fewer units, or fewer documents per unit than the largest unit holds`,
    );
  }
  return { names, members, sampledUnits, perUnit };
}

/** m·k: the most documents a two-stage sample holds (a study's K, StudyOptions.documents). */
export function mostDocuments(units: StudyUnits): number {
  return units.sampledUnits * units.perUnit;
}

/** E[K] = (m/T) Σ_i min(k, M_i): the documents a two-stage sample holds on average. */
export function expectedDocuments(units: StudyUnits): number {
  const total = units.members.reduce((t, m) => t + Math.min(units.perUnit, m.length), 0);
  return (units.sampledUnits * total) / units.names.length;
}

/**
 * Repetition i's two-stage sample, from the generator of SeedSequence(seed, spawn_key=(i, 0)):
 * `choice(T, m, replace=False)` picks the units, then for each drawn unit in the order drawn
 * `choice(M_i, k_i, replace=False)` picks its documents (census order within the unit), so a
 * repetition replays in numpy with the same generator. Returns census positions and each
 * document's unit name.
 */
export function twoStageIndices(
  units: StudyUnits,
  seed: number,
  repetition: number,
): { readonly indices: Uint32Array; readonly labels: string[] } {
  const generator = createPcg64(seed, [repetition, 0]);
  const drawnUnits = choiceWithoutReplacement(generator, units.names.length, units.sampledUnits);
  const picked: number[] = [];
  const labels: string[] = [];
  for (const u of drawnUnits) {
    const members = units.members[u] as readonly number[];
    const k = Math.min(units.perUnit, members.length);
    for (const j of choiceWithoutReplacement(generator, members.length, k)) {
      picked.push(members[j] as number);
      labels.push(units.names[u] as string);
    }
  }
  return { indices: Uint32Array.from(picked), labels };
}

/**
 * A two-stage design file's populations (T and each M_i) checked against the census's units:
 * a study of the design the user will analyse with must draw from the population it describes.
 */
export function checkTwoStagePopulation(
  units: StudyUnits,
  firstStagePopulation: number,
  secondStagePopulation: Readonly<Record<string, number>>,
  source: string,
): void {
  const T = units.names.length;
  if (firstStagePopulation !== T) {
    throw new RagciError(
      "invalid-design",
      `${source}: first_stage_population is ${firstStagePopulation} but the census has ${T} first-stage units; the design must describe the census`,
    );
  }
  units.names.forEach((name, u) => {
    const census = units.members[u]?.length as number;
    const given = secondStagePopulation[name];
    if (given !== census) {
      throw new RagciError(
        "invalid-design",
        `${source}: unit "${name}" has ${given === undefined ? "no M_i" : `M_i = ${given}`} in second_stage_population but ${census} documents in the census`,
      );
    }
  });
}
