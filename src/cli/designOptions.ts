import type { Command } from "commander";
import type { DocumentDesign } from "../core/designs/applyDesign.js";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../core/designs/lonelyPsu.js";
import { RagciError } from "../core/errors.js";
import { AGGREGATE_COLUMNS, readDesign } from "../ingest/index.js";

/** The design flags analyze and compare share (SPEC §4). */
export interface DesignCommandOptions {
  readonly design?: string;
  readonly stratum?: string;
  readonly psu?: string;
  /** Overrides "lonely_psu" of the design file. */
  readonly lonelyPsu?: LonelyPsu;
  readonly population?: number;
}

function parseLonelyPsu(text: string): LonelyPsu {
  if (isLonelyPsu(text)) return text;
  throw new RagciError(
    "invalid-option",
    `--lonely-psu ${text}: use one of ${LONELY_PSU_RULES.join(", ")} (R survey's survey.lonely.psu)`,
  );
}

/** Registers --design, --stratum, --psu and --lonely-psu (--population is an inference option). */
export function withDesignOptions(command: Command): Command {
  return command
    .option(
      "--design <file>",
      "sampling design (JSON: srs, stratified or two-stage; docs/designs.md)",
    )
    .option("--stratum <column>", "stratum column for a stratified design (default: stratum)")
    .option("--psu <column>", "first-stage unit column for a two-stage design (default: psu)")
    .option(
      "--lonely-psu <rule>",
      "stratum with one sampled document: fail (default), remove, adjust, average or certainty",
      parseLonelyPsu,
    );
}

export interface DeclaredDesign {
  readonly kind: "srs" | "stratified" | "two-stage";
  /** The per-document column the design needs (stratum or psu), if any. */
  readonly label: string | null;
  /** M for an SRS design (from --population or the file), null otherwise. */
  readonly population: number | null;
  /** The design for documents carrying these labels (aligned with their ids); null for SRS. */
  readonly build: (labels: readonly string[] | undefined) => DocumentDesign | null;
}

/** The design of --design FILE (or SRS with --population), checked against the other flags. */
export async function declaredDesign(options: DesignCommandOptions): Promise<DeclaredDesign> {
  if (!options.design) {
    if (options.stratum || options.psu || options.lonelyPsu) {
      throw new RagciError(
        "invalid-option",
        "--stratum, --psu and --lonely-psu belong to a design: give the design with --design FILE.json (population sizes per stratum or unit)",
      );
    }
    return { kind: "srs", label: null, population: options.population ?? null, build: () => null };
  }
  const spec = await readDesign(options.design);
  if (options.lonelyPsu && spec.kind !== "stratified") {
    throw new RagciError(
      "invalid-option",
      `--lonely-psu applies to a stratified design; ${options.design} is ${spec.kind}`,
    );
  }
  if (spec.kind === "srs") {
    if (
      options.population !== undefined &&
      spec.population !== null &&
      options.population !== spec.population
    ) {
      throw new RagciError(
        "invalid-option",
        `--population ${options.population} disagrees with population_documents ${spec.population} in ${options.design}`,
      );
    }
    return {
      kind: "srs",
      label: null,
      population: options.population ?? spec.population,
      build: () => null,
    };
  }
  if (options.population !== undefined) {
    throw new RagciError(
      "invalid-option",
      `--population applies to SRS; the ${spec.kind} design in ${options.design} gives its own population sizes`,
    );
  }
  const column =
    spec.kind === "stratified" ? (options.stratum ?? "stratum") : (options.psu ?? "psu");
  if ((AGGREGATE_COLUMNS as readonly string[]).includes(column)) {
    throw new RagciError(
      "invalid-option",
      `the design column cannot be named ${column} (a column of the per-document table: ${AGGREGATE_COLUMNS.join(", ")}); rename it`,
    );
  }
  return {
    kind: spec.kind,
    label: column,
    population: null,
    build: (labels = []) =>
      spec.kind === "stratified"
        ? {
            kind: "stratified",
            strata: labels,
            populationSizes: spec.strata,
            lonelyPsu: options.lonelyPsu ?? spec.lonelyPsu ?? "fail",
          }
        : {
            kind: "two-stage",
            units: labels,
            firstStagePopulation: spec.firstStagePopulation,
            secondStagePopulation: spec.secondStagePopulation,
          },
  };
}
