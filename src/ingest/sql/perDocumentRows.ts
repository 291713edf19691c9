import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One row of the per-document table as a database returns it (counts may come as text). */
export type PerDocumentRow = Readonly<Record<string, unknown>>;

const number = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * Hands the per-document rows a database returned to `read` as a JSONL file, so they go
 * through the same reader and checks as an `--aggregated` file (readAggregates). JSON keeps
 * ids as strings (a CSV would let "001" be sniffed as a number) and doubles round-trip. A
 * design's `label` column, when the rows carry one, is kept as text under its name.
 */
export async function withPerDocumentFile<T>(
  rows: readonly PerDocumentRow[],
  read: (path: string) => Promise<T>,
  label: string | null = null,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "ragci-db-"));
  const path = join(dir, "perdoc.jsonl");
  try {
    const lines = rows.map((r) =>
      JSON.stringify({
        system: text(r.system),
        metric: text(r.metric),
        doc: text(r.doc),
        n: number(r.n),
        s: number(r.s),
        ss: number(r.ss),
        min: number(r.min),
        max: number(r.max),
        ...(label ? { [label]: text(r[label]) } : {}),
      }),
    );
    await writeFile(path, lines.length > 0 ? `${lines.join("\n")}\n` : "");
    return await read(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
