import { readFile } from "node:fs/promises";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../core/designs/lonelyPsu.js";
import { RagciError } from "../core/errors.js";

/** A design file as in SPEC §4 (`reference/*.design.json`), validated. */
export type DesignSpec =
  | { readonly kind: "srs"; readonly population: number | null }
  | {
      readonly kind: "stratified";
      readonly strata: Readonly<Record<string, number>>;
      /** "lonely_psu": the rule for a stratum with one sampled document; null if not given. */
      readonly lonelyPsu: LonelyPsu | null;
    }
  | {
      readonly kind: "two-stage";
      readonly firstStagePopulation: number;
      readonly secondStagePopulation: Readonly<Record<string, number>>;
    };

function sizes(file: string, key: string, value: unknown): Record<string, number> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RagciError(
      "invalid-design",
      `${file}: "${key}" must map each name to its number of documents`,
      { file },
    );
  }
  for (const [name, size] of Object.entries(value)) {
    if (!(Number.isInteger(size) && (size as number) >= 1)) {
      throw new RagciError(
        "invalid-design",
        `${file}: "${key}.${name}" must be a whole number of documents ≥ 1 (got ${JSON.stringify(size)})`,
        { file },
      );
    }
  }
  return value as Record<string, number>;
}

function lonelyPsu(file: string, value: unknown): LonelyPsu | null {
  if (value === undefined) return null;
  if (!isLonelyPsu(value)) {
    throw new RagciError(
      "invalid-design",
      `${file}: "lonely_psu" must be one of ${LONELY_PSU_RULES.map((r) => `"${r}"`).join(", ")} (got ${JSON.stringify(value)})`,
      { file },
    );
  }
  return value;
}

/**
 * Reads `{"design": "srs", "population_documents": 1300}`, `{"design": "stratified",
 * "strata": {"large": 17, …}}` or `{"design": "two-stage", "first_stage_population": 10,
 * "second_stage_population": {"t01": 28, …}}`. A stratified design may add `"lonely_psu":
 * "adjust"` (fail, remove, adjust, average or certainty; R survey's survey.lonely.psu). Other
 * keys (metric, description) are ignored.
 *
 * @example // the size strata of examples/synthetic-census.csv at cutoff 76 (large: more than 76
 *   // results), written as a design file and read back; the file's keys become the fields
 *   await writeFile(join(tmpdir(), "strata.design.json"), JSON.stringify({ design: "stratified", strata: { large: 129, small: 1171 }, lonely_psu: "adjust" }));
 *   await readDesign(join(tmpdir(), "strata.design.json"))
 *   // => { kind: "stratified", strata: { large: 129, small: 1171 }, lonelyPsu: "adjust" }
 */
export async function readDesign(file: string): Promise<DesignSpec> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RagciError("unreadable-input", `${file}: cannot read the design (${reason})`, {
      file,
    });
  }
  const d = raw as Record<string, unknown>;
  if (d.lonely_psu !== undefined && d.design !== "stratified") {
    throw new RagciError(
      "invalid-design",
      `${file}: "lonely_psu" applies to a stratified design (this one is ${JSON.stringify(d.design)})`,
      { file },
    );
  }
  switch (d.design) {
    case "srs": {
      const m = d.population_documents ?? null;
      if (m !== null && !(Number.isInteger(m) && (m as number) >= 2)) {
        throw new RagciError(
          "invalid-design",
          `${file}: "population_documents" must be a whole number ≥ 2`,
          { file },
        );
      }
      return { kind: "srs", population: m as number | null };
    }
    case "stratified":
      return {
        kind: "stratified",
        strata: sizes(file, "strata", d.strata),
        lonelyPsu: lonelyPsu(file, d.lonely_psu),
      };
    case "two-stage": {
      const t = d.first_stage_population;
      if (!(Number.isInteger(t) && (t as number) >= 2)) {
        throw new RagciError(
          "invalid-design",
          `${file}: "first_stage_population" must be a whole number ≥ 2`,
          { file },
        );
      }
      return {
        kind: "two-stage",
        firstStagePopulation: t as number,
        secondStagePopulation: sizes(file, "second_stage_population", d.second_stage_population),
      };
    }
    default:
      throw new RagciError(
        "invalid-design",
        `${file}: "design" must be "srs", "stratified" or "two-stage" (got ${JSON.stringify(d.design)})`,
        { file },
      );
  }
}
