// What the noise facets cost at 10⁷ rows (issue 28: "computed from per-(document, query, facet)
// sums … so 10⁷ rows cost about what ingestion costs today"). Whole processes, timed by
// /usr/bin/time (wall, CPU, peak RSS), on one Parquet file written by DuckDB:
//   1,000 documents × 25 queries × 4 judges × 100 reruns = 10⁷ rows, 10⁵ cells; a 0/1 score
//   with a document effect, a judge effect and noise (deterministic hashes, no RNG state).
// Rows:
//   1. DuckDB alone: the cells' GROUP BY (count, sum, var_pop per document × query × judge),
//      fetched into JS — the reference for the statement ragci sends;
//   2. ragci analyze --replicates 0: today's ingestion (per-document sums, no facets);
//   3. ragci analyze --judge judge --trial trial --replicates 0: the cells, the REML fit of
//      10⁵ cells and both faceted intervals.
//   node bench/facets-ingest.mjs [--repeats N] [--rows 1e6]  (--rows: a smaller file, same layout
//   per document: rows / 10⁴ documents)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench", "out");
const rowsAt = process.argv.indexOf("--rows");
const ROWS = rowsAt > 0 ? Number(process.argv[rowsAt + 1]) : 1e7;
if (!(ROWS >= 1e4 && ROWS % 1e4 === 0)) throw new Error("--rows: a multiple of 10⁴");
const FILE = path.join(OUT, ROWS === 1e7 ? "facets-1e7.parquet" : `facets-${ROWS}.parquet`);
const CLI = path.join(
  ROOT,
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).bin.ragci,
);
const at = process.argv.indexOf("--repeats");
const REPEATS = at > 0 ? Number(process.argv[at + 1]) : 1;

async function ensureFile() {
  if (existsSync(FILE)) return;
  mkdirSync(OUT, { recursive: true });
  const db = await (await DuckDBInstance.create(":memory:")).connect();
  // i = ((doc·25 + query)·4 + judge)·100 + trial; hash() gives the effects and the noise.
  await db.run(`COPY (
    SELECT doc, doc * 25 + q AS query_id, 'j' || judge AS judge, trial,
      CASE WHEN (hash(doc) % 1000) / 1000.0 * 0.6 + judge * 0.05 + (hash(i) % 1000) / 1000.0 > 0.9
        THEN 1 ELSE 0 END AS score
    FROM (SELECT i, i // 10000 AS doc, (i // 400) % 25 AS q, (i // 100) % 4 AS judge, i % 100 AS trial
          FROM range(${ROWS}) t(i))
  ) TO '${FILE}' (FORMAT parquet)`);
}

/** One whole process under /usr/bin/time: wall and CPU seconds, peak RSS in MB. */
function timed(command, args) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", command, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${r.stderr}`);
  const [wall, user, sys, kb] = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wall, cpu: user + sys, mb: kb / 1024, stdout: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function repeat(command, args) {
  const runs = Array.from({ length: REPEATS }, () => timed(command, args));
  return {
    wall: median(runs.map((r) => r.wall)),
    cpu: median(runs.map((r) => r.cpu)),
    mb: Math.max(...runs.map((r) => r.mb)),
    stdout: runs[0].stdout,
  };
}

await ensureFile();
const duckdbAlone = `
import { DuckDBInstance } from "@duckdb/node-api";
const db = await (await DuckDBInstance.create(":memory:")).connect();
const r = await db.runAndReadAll("SELECT doc, query_id, judge, count(*) AS n, sum(score) AS s, var_pop(score) AS v FROM '${FILE}' GROUP BY ALL");
process.stdout.write(String(r.getRows().length));
`;
const script = path.join(OUT, "facets-duckdb-alone.mjs");
writeFileSync(script, duckdbAlone);
const base = [FILE, "--doc", "doc", "--query", "query_id", "--metric", "score"];
const rows = [
  ["DuckDB alone: the cells' GROUP BY", repeat(process.execPath, [script])],
  [
    "ragci analyze (no facets)",
    repeat(process.execPath, [CLI, "analyze", ...base, "--replicates", "0", "--json"]),
  ],
  [
    "ragci analyze --judge --trial",
    repeat(process.execPath, [
      CLI,
      "analyze",
      ...base,
      "--judge",
      "judge",
      "--trial",
      "trial",
      "--replicates",
      "0",
      "--json",
    ]),
  ],
];
const cells = Number(rows[0][1].stdout);
const faceted = JSON.parse(rows[2][1].stdout).analyses[0];
console.log(
  `${ROWS.toExponential(0)} rows, ${cells} cells (${faceted.facets.levels.judges} judges), repeats ${REPEATS}`,
);
console.log("| run | wall | CPU | peak RSS | CPU ÷ ragci without facets |");
console.log("|---|---|---|---|---|");
for (const [name, t] of rows)
  console.log(
    `| ${name} | ${t.wall.toFixed(2)} s | ${t.cpu.toFixed(2)} s | ${Math.round(t.mb)} MB | ${(t.cpu / rows[1][1].cpu).toFixed(2)}× |`,
  );
console.log(
  `population interval ${faceted.facets.population.lower.toFixed(4)}–${faceted.facets.population.upper.toFixed(4)}, ν ${faceted.facets.population.df.toFixed(2)}`,
);
