// Where does `ragci analyze` spend its time? Each mode runs in a fresh process (spawned by
// bench/analyze.mjs) and prints one JSON line of timings in seconds.
//   node bench/probe.mjs sql FILE REPEATS VARIANT...   DuckDB queries alone
//   node bench/probe.mjs stages FILE REPEATS           readResults, sha256File, analyze, JSON
import { DuckDBInstance } from "@duckdb/node-api";

const [mode, file, repeatsText, ...rest] = process.argv.slice(2);
const repeats = Number(repeatsText ?? 3);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function timed(work) {
  const times = [];
  let value;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    value = await work();
    times.push((performance.now() - t0) / 1000);
  }
  return { median: median(times), min: Math.min(...times), times, value };
}

const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const source = file.endsWith(".parquet")
  ? `read_parquet(${quote(file)})`
  : `read_csv(${quote(file)}, header = true, types = {'doc_id': 'VARCHAR', 'hit': 'DOUBLE'})`;

/**
 * The aggregation `readResults` runs for `--doc doc_id --metric hit` (copied from
 * src/ingest/readResults.ts aggregationSql, one metric, no system column). `sum` picks the
 * summation: the shipped DECIMAL(38, 18) one or a plain double sum.
 */
function ragciSql(sum) {
  const finite = "CASE WHEN isfinite(v0) THEN v0 END";
  return `SELECT doc, system, count(*) AS n, ${sum(finite)} AS s0, ${sum(`${finite} * ${finite}`)} AS ss0,
      min(v0) AS min0, max(v0) AS max0, bool_and(v0 = 0 OR v0 = 1) AS binary0,
      count(*) FILTER (WHERE v0 IS NULL OR NOT isfinite(v0)) AS bad0
    FROM (SELECT CAST("doc_id" AS VARCHAR) AS doc, NULL::VARCHAR AS system,
      TRY_CAST("hit" AS DOUBLE) AS v0, "hit" IS NOT NULL AS present0 FROM ${source})
    GROUP BY doc, system ORDER BY system, doc`;
}
const decimal = (x) => `sum(CAST(${x} AS DECIMAL(38, 18)))::DOUBLE`;
const double = (x) => `sum(${x})`;

const VARIANTS = {
  scan: `SELECT count(*) FROM ${source}`,
  "group-double": `SELECT doc_id, count(*), sum(hit) FROM ${source} GROUP BY doc_id`,
  "group-decimal": `SELECT doc_id, count(*), sum(CAST(hit AS DECIMAL(38, 18)))::DOUBLE FROM ${source} GROUP BY doc_id`,
  "ragci-decimal": ragciSql(decimal),
  "ragci-double": ragciSql(double),
};

async function withConnection(work) {
  const instance = await DuckDBInstance.create(":memory:", { preserve_insertion_order: "true" });
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

if (mode === "sql") {
  const out = {};
  await withConnection(async (connection) => {
    for (const name of rest) {
      const sql = VARIANTS[name];
      if (!sql) throw new Error(`unknown variant ${name}`);
      const r = await timed(async () => (await connection.runAndReadAll(sql)).getRowsJS().length);
      out[name] = { median: r.median, min: r.min, rows: r.value };
    }
  });
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else if (mode === "stages") {
  const t0 = performance.now();
  const { readResults, sha256File, sha256Aggregates } = await import("../dist/ingest/index.js");
  const { analyze } = await import("../dist/core/index.js");
  const { formatReportJson } = await import("../dist/report/json.js");
  const imports = (performance.now() - t0) / 1000;
  const options = { file, doc: "doc_id", metrics: ["hit"] };
  const read = await timed(() => readResults(options));
  const hash = await timed(() => sha256File(file));
  const both = await timed(() => Promise.all([readResults(options), sha256File(file)]));
  const table = read.value;
  const group = table.groups[0];
  const compute = await timed(() => {
    const analysis = analyze(group.stats, { level: 0.95, population: null, estimand: null });
    const entry = {
      metric: group.metric,
      system: group.system,
      analysis,
      aggregatesSha256: sha256Aggregates([group]),
    };
    const report = {
      command: "ragci analyze",
      version: "bench",
      inputs: [{ file, sha256: hash.value, format: table.format, rows: table.rows, kind: "per-query" }],
      entries: [entry],
      aggregatesFile: null,
      summation: table.summation,
    };
    return formatReportJson(report).length;
  });
  const pick = ({ median: m, min }) => ({ median: m, min });
  process.stdout.write(
    `${JSON.stringify({
      imports,
      readResults: pick(read),
      sha256File: pick(hash),
      concurrent: pick(both),
      analyzeAndReport: pick(compute),
      documents: group.stats.ids.length,
    })}\n`,
  );
} else {
  throw new Error(`usage: node bench/probe.mjs sql|stages FILE REPEATS [VARIANT...]`);
}
