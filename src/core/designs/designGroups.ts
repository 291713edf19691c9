import { RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";
import { groupIndices } from "./groupIndices.js";

/** The sampled documents of one stratum or first-stage unit, and its size in the population. */
export interface DesignGroup {
  readonly name: string;
  /** Indices into the stats' documents. */
  readonly documents: number[];
  readonly population: number;
}

/** How a design's messages name its groups (strata, or first-stage units). */
export interface DesignGroupWords {
  /** "strata labels" / "unit labels". */
  readonly labels: string;
  /** `stratum "x"` / `unit "x"`, and in the missing-size message `first-stage unit "x"`. */
  readonly group: string;
  readonly missingGroup: string;
  /** Where the design gives the sizes: "population sizes" / "second_stage_population". */
  readonly sizes: string;
  /** The size's symbol: M_h / M_i. */
  readonly size: string;
}

/**
 * The sampled documents grouped by their design label (in order of first appearance), each with
 * its population size from the design: one label per document, a size for every label, and no
 * fewer documents in the population than sampled; then the design's own `check` of each group.
 *
 * @throws RagciError "invalid-design" naming the group (context.stratum) that fails
 */
export function designGroups(
  stats: DocumentStats,
  design: {
    /** Each document's stratum or unit, aligned with stats.ids. */
    readonly labels: readonly string[];
    /** Each label's documents in the population. */
    readonly sizes: Readonly<Record<string, number>>;
    readonly words: DesignGroupWords;
    /** The design's own check of a group (a lonely stratum, a unit of one document). */
    readonly check: (group: DesignGroup) => void;
  },
): DesignGroup[] {
  const { labels, sizes, words, check } = design;
  if (labels.length !== stats.ids.length) {
    throw new RagciError(
      "invalid-design",
      `the design gives ${labels.length} ${words.labels} for ${stats.ids.length} documents`,
    );
  }
  return [...groupIndices(labels)].map(([name, documents]) => {
    const population = sizes[name];
    if (population === undefined) {
      throw new RagciError(
        "invalid-design",
        `${words.missingGroup} "${name}" is in the data but not in the design's ${words.sizes}`,
        { stratum: name },
      );
    }
    if (!(Number.isInteger(population) && population >= documents.length)) {
      throw new RagciError(
        "invalid-design",
        `${words.group} "${name}" has ${documents.length} sampled documents but ${words.size} = ${population} in the design`,
        { stratum: name },
      );
    }
    const group = { name, documents, population };
    check(group);
    return group;
  });
}
