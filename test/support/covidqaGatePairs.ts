import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
export const COVIDQA = join(ROOT, "examples/covidqa-retrieval.csv");
export const METRIC_COLUMNS = ["rank", "hit1", "hit5", "hit10", "rr"] as const;

/** One row of examples/covidqa-retrieval.csv (the file has no quoted fields). */
export type Row = Readonly<Record<string, string>>;

export function readCovidqa(): { readonly header: string[]; readonly rows: Row[] } {
  const [head, ...lines] = readFileSync(COVIDQA, "utf8").trimEnd().split(/\r?\n/);
  const header = (head as string).split(",");
  const rows = lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(header.map((h, i) => [h, cells[i] as string]));
  });
  return { header, rows };
}

/**
 * A copy of a system's rows with a few results changed, as a small change to a retriever would
 * (examples/ci/README.md): every `every`-th row from `offset`; a top-5 hit moves to rank 6, a
 * miss moves to rank `rankUp` (≤ 5).
 */
export function flippedCopy(rows: readonly Row[], every: number, offset: number, rankUp: number) {
  return rows.map((row, i) => {
    if (i % every !== offset) return row;
    const rank = row.hit5 === "1" ? 6 : rankUp;
    return {
      ...row,
      rank: String(rank),
      hit1: rank === 1 ? "1" : "0",
      hit5: rank <= 5 ? "1" : "0",
      hit10: "1",
      rr: String(1 / rank),
    };
  });
}

/** The rows as a CSV with the given columns. */
export function csvOf(rows: readonly Row[], columns: readonly string[]): string {
  return `${[columns.join(","), ...rows.map((r) => columns.map((c) => r[c]).join(","))].join("\n")}\n`;
}

/** The COVID-QA pair's systems. */
export function systemRows(rows: readonly Row[], system: string): Row[] {
  return rows.filter((r) => r.system === system);
}
