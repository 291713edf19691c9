import type { DocumentDesign } from "../core/designs/applyDesign.js";
import type { LonelyPsu } from "../core/designs/lonelyPsu.js";
import { type OptionName, optionRef, RagciError } from "../core/errors.js";
import { AGGREGATE_COLUMNS, isAggregateColumn } from "./aggregateColumns.js";
import { readDesign } from "./readDesign.js";

/** The design options of an analysis or a comparison (SPEC §4). */
export interface DesignOptions {
  /** A design FILE.json: srs, stratified or two-stage (docs/designs.md); absent for SRS. */
  readonly design?: string;
  /** The stratum column of a stratified design (default stratum). */
  readonly stratum?: string;
  /** The first-stage unit column of a two-stage design (default psu). */
  readonly psu?: string;
  /** Overrides "lonely_psu" of the design file. */
  readonly lonelyPsu?: LonelyPsu;
  /** M of an SRS design. */
  readonly population?: number;
}

export interface DeclaredDesign {
  readonly kind: "srs" | "stratified" | "two-stage";
  /** The per-document column the design needs (stratum or psu), if any: readSource's documentLabel. */
  readonly label: string | null;
  /** M for an SRS design (from `population` or the file), null otherwise. */
  readonly population: number | null;
  /** The design for documents carrying these labels (aligned with their ids); null for SRS. */
  readonly build: (labels: readonly string[] | undefined) => DocumentDesign | null;
}

const refuse = (message: string, option: OptionName) =>
  new RagciError("invalid-option", message, { option });

/**
 * The design of the `design` file (or SRS with `population`), checked against the other
 * options: the column each document's stratum or unit is read from, M, and the design core's
 * analyze and compareMetric take once the labels are read.
 *
 * @throws RagciError when an option does not apply to the design, or the file is unreadable
 */
export async function declaredDesign(options: DesignOptions): Promise<DeclaredDesign> {
  const [design, stratum, psu, lonelyPsu, population] = (
    ["design", "stratum", "psu", "lonelyPsu", "population"] as const
  ).map((name) => optionRef(name));
  if (!options.design) {
    if (options.stratum || options.psu || options.lonelyPsu) {
      throw refuse(
        `${stratum}, ${psu} and ${lonelyPsu} belong to a design: give the design with ${design} FILE.json (population sizes per stratum or unit)`,
        "design",
      );
    }
    return { kind: "srs", label: null, population: options.population ?? null, build: () => null };
  }
  const spec = await readDesign(options.design);
  if (options.lonelyPsu && spec.kind !== "stratified") {
    throw refuse(
      `${lonelyPsu} applies to a stratified design; ${options.design} is ${spec.kind}`,
      "lonelyPsu",
    );
  }
  if (spec.kind === "srs") {
    const given = options.population;
    if (given !== undefined && spec.population !== null && given !== spec.population) {
      throw refuse(
        `${population} ${given} disagrees with population_documents ${spec.population} in ${options.design}`,
        "population",
      );
    }
    return { kind: "srs", label: null, population: given ?? spec.population, build: () => null };
  }
  if (options.population !== undefined) {
    throw refuse(
      `${population} applies to SRS; the ${spec.kind} design in ${options.design} gives its own population sizes`,
      "population",
    );
  }
  const column =
    spec.kind === "stratified" ? (options.stratum ?? "stratum") : (options.psu ?? "psu");
  if (isAggregateColumn(column)) {
    throw refuse(
      `the design column cannot be named ${column} (a column of the per-document table: ${AGGREGATE_COLUMNS.join(", ")}); rename it`,
      spec.kind === "stratified" ? "stratum" : "psu",
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
