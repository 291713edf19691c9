import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { optionRef, RagciError } from "../core/errors.js";
import { withDuckDb } from "./duckdb.js";
import { aggregatesCsv } from "./hashInputs.js";
import { sqlString } from "./inputFormat.js";
import type { MetricAggregates } from "./resultsTable.js";
import { writeAtomicWith } from "./writeAtomic.js";

/** The --write-aggregates name must say its format: .csv, or .parquet (.pq). */
export function checkAggregatesFileName(target: string): void {
  if (!/\.(csv|parquet|pq)$/i.test(target)) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("writeAggregates")} ${target}: the name must end in .csv or .parquet (the format is taken from it)`,
      { option: "writeAggregates" },
    );
  }
}

/**
 * Saves the per-document table (system, metric, doc, n, s, ss, min, max[, design label]) as CSV, or Parquet
 * when the name ends in .parquet, atomically. `ragci analyze FILE --aggregated` re-runs from it.
 *
 * @example // two documents of bm25's hit5 (a: 1 hit in 2 results, b: 3 in 3), a line each; min
 *   // and max are the range of the document's single results (b has only hits: 1 and 1)
 *   await writeAggregates(join(tmpdir(), "hit5.aggregates.csv"), [{ system: "bm25", metric: "hit5", stats: documentStats({ ids: ["a", "b"], n: [2, 3], s: [1, 3] }) }]);
 *   (await readFile(join(tmpdir(), "hit5.aggregates.csv"), "utf8")).split("\n")
 *   // => ["system,metric,doc,n,s,ss,min,max", "bm25,hit5,a,2,1,1,0,1", "bm25,hit5,b,3,3,3,1,1", ""]
 */
export async function writeAggregates(
  target: string,
  groups: readonly MetricAggregates[],
  labelColumn: string | null = null,
): Promise<void> {
  checkAggregatesFileName(target);
  const csv = aggregatesCsv(groups, labelColumn);
  const labelType = labelColumn ? `, ${sqlString(labelColumn)}: 'VARCHAR'` : "";
  if (/\.(parquet|pq)$/i.test(target)) {
    // The CSV DuckDB converts, in a private directory of the system's: not beside the target.
    const stagingDirectory = await mkdtemp(join(tmpdir(), "ragci-aggregates-"));
    const staging = join(stagingDirectory, "aggregates.csv");
    try {
      await writeFile(staging, csv);
      await writeAtomicWith(target, (temporary) =>
        withDuckDb(async (connection) => {
          await connection.run(
            `COPY (SELECT * FROM read_csv(${sqlString(staging)}, header = true, types = {'system': 'VARCHAR', 'metric': 'VARCHAR', 'doc': 'VARCHAR', 'n': 'DOUBLE', 's': 'DOUBLE', 'ss': 'DOUBLE', 'min': 'DOUBLE', 'max': 'DOUBLE'${labelType}})) TO ${sqlString(temporary)} (FORMAT parquet)`,
          );
        }),
      );
    } finally {
      await rm(stagingDirectory, { recursive: true, force: true });
    }
    return;
  }
  await writeAtomicWith(target, (temporary) => writeFile(temporary, csv));
}
