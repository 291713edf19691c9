import { readFile } from "node:fs/promises";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../core/designs/lonelyPsu.js";
import { RagciError } from "../core/errors.js";
import { closestName } from "./closestName.js";

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

/** The keys each design reads. */
const DESIGN_KEYS = {
  srs: ["population_documents"],
  stratified: ["strata", "lonely_psu"],
  "two-stage": ["first_stage_population", "second_stage_population"],
} as const;

/** Keys that describe the file and are not read (those of test/fixtures/reference/*.design.json). */
const NOTE_KEYS = ["metric", "description", "paired"] as const;

const READ_KEYS: readonly string[] = ["design", ...Object.values(DESIGN_KEYS).flat()];

/**
 * Refuses a key no design reads (a misspelt one was ignored, and its design with it: no fpc
 * from "population_docs"), naming the closest known key, or the known keys.
 */
function refuseUnknownKeys(file: string, d: Record<string, unknown>): void {
  const known = [...READ_KEYS, ...NOTE_KEYS];
  const unknown = Object.keys(d).find((key) => !known.includes(key));
  if (unknown === undefined) return;
  const closest = closestName(unknown, known);
  throw new RagciError(
    "invalid-design",
    `${file}: unknown key "${unknown}"${closest ? ` (did you mean "${closest}"?)` : ""}; a design file's keys are ${READ_KEYS.map((k) => `"${k}"`).join(", ")}, and ${NOTE_KEYS.map((k) => `"${k}"`).join(", ")}, which describe it and are not read`,
    { file },
  );
}

/** Refuses a key of another kind of design than the file's ("strata" in an SRS design). */
function refuseOtherDesignsKeys(
  file: string,
  d: Record<string, unknown>,
  kind: keyof typeof DESIGN_KEYS,
): void {
  for (const [other, keys] of Object.entries(DESIGN_KEYS)) {
    if (other === kind) continue;
    const key = keys.find((k) => d[k] !== undefined);
    if (key !== undefined)
      throw new RagciError(
        "invalid-design",
        `${file}: "${key}" applies to a ${other} design (this one is ${JSON.stringify(kind)}); the ${JSON.stringify(kind)} design reads ${DESIGN_KEYS[kind].map((k) => `"${k}"`).join(", ")}`,
        { file },
      );
  }
}

/**
 * Reads `{"design": "srs", "population_documents": 1300}`, `{"design": "stratified",
 * "strata": {"large": 17, …}}` or `{"design": "two-stage", "first_stage_population": 10,
 * "second_stage_population": {"t01": 28, …}}`. A stratified design may add `"lonely_psu":
 * "adjust"` (fail, remove, adjust, average or certainty; R survey's survey.lonely.psu). The keys
 * metric, description and paired describe the file and are not read; any other key is refused,
 * as is a key of another kind of design.
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
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new RagciError(
      "invalid-design",
      `${file}: a design file is a JSON object, e.g. {"design": "srs", "population_documents": 1300}`,
      { file },
    );
  }
  const d = raw as Record<string, unknown>;
  refuseUnknownKeys(file, d);
  if (d.design === "srs" || d.design === "stratified" || d.design === "two-stage")
    refuseOtherDesignsKeys(file, d, d.design);
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
