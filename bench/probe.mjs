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
const aggregatedInput = rest.includes("--aggregated");
const variantNames = rest.filter((a) => a !== "--aggregated");
const source = file.endsWith(".parquet")
  ? `read_parquet(${quote(file)})`
  : aggregatedInput
    ? `read_csv(${quote(file)}, header = true)`
    : `read_csv(${quote(file)}, header = true, types = {'doc_id': 'VARCHAR', 'hit': 'DOUBLE'})`;

/**
 * The aggregation `readResults` runs for `--doc doc_id --metric hit` (copied from
 * src/ingest/readResults.ts aggregationSql, one metric, no system column). `sum` picks the
 * summation: the shipped DECIMAL(38, 18) one or a plain double sum.
 */
function ragciSql(sum, squares = true) {
  const finite = "CASE WHEN isfinite(v0) THEN v0 END";
  const ss = squares ? sum(`${finite} * ${finite}`) : "NULL::DOUBLE";
  return `SELECT doc, system, count(*) AS n, ${sum(finite)} AS s0, ${ss} AS ss0,
      min(v0) AS min0, max(v0) AS max0, bool_and(v0 = 0 OR v0 = 1) AS binary0,
      count(*) FILTER (WHERE v0 IS NULL OR NOT isfinite(v0)) AS bad0
    FROM (SELECT CAST("doc_id" AS VARCHAR) AS doc, NULL::VARCHAR AS system,
      TRY_CAST("hit" AS DOUBLE) AS v0, "hit" IS NOT NULL AS present0 FROM ${source})
    GROUP BY doc, system ORDER BY system, doc`;
}

/** The two queries of src/ingest/readAggregates.ts for a `doc,n,s` file (copied). */
const badN = `"n" IS NULL OR TRY_CAST("n" AS DOUBLE) IS NULL OR TRY_CAST("n" AS DOUBLE) <= 0 OR TRY_CAST("n" AS DOUBLE) <> round(TRY_CAST("n" AS DOUBLE))`;
const badS = `TRY_CAST("s" AS DOUBLE) IS NULL OR NOT isfinite(TRY_CAST("s" AS DOUBLE))`;
function aggregatesSql(sum) {
  return `SELECT NULL::VARCHAR AS system, NULL::VARCHAR AS metric, CAST("doc" AS VARCHAR) AS doc,
      ${sum(`CAST("n" AS DOUBLE)`)} AS n, ${sum(`CAST("s" AS DOUBLE)`)} AS s, NULL::DOUBLE AS ss,
      NULL::DOUBLE AS mn, NULL::DOUBLE AS mx
    FROM ${source} GROUP BY ALL ORDER BY system, metric, doc`;
}
const decimal = (x) => `sum(CAST(${x} AS DECIMAL(38, 18)))::DOUBLE`;
const double = (x) => `sum(${x})`;

const VARIANTS = {
  scan: `SELECT count(*) FROM ${source}`,
  "group-double": `SELECT doc_id, count(*), sum(hit) FROM ${source} GROUP BY doc_id`,
  "group-decimal": `SELECT doc_id, count(*), sum(CAST(hit AS DECIMAL(38, 18)))::DOUBLE FROM ${source} GROUP BY doc_id`,
  "ragci-decimal": ragciSql(decimal),
  "ragci-double": ragciSql(double),
  "ragci-decimal-no-ss": ragciSql(decimal, false),
  "agg-check": `SELECT count(*) FILTER (WHERE ${badN}) AS bn, count(*) FILTER (WHERE ${badS}) AS bs, count(*) AS k FROM ${source}`,
  "agg-decimal": aggregatesSql(decimal),
  "agg-double": aggregatesSql(double),
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
    for (const name of variantNames) {
      const sql = VARIANTS[name];
      if (!sql) throw new Error(`unknown variant ${name}`);
      const query = [];
      const convert = [];
      let rows = 0;
      for (let r = 0; r < repeats; r++) {
        const t0 = performance.now();
        const reader = await connection.runAndReadAll(sql);
        const t1 = performance.now();
        rows = reader.getColumnsJS()[0]?.length ?? 0;
        query.push((t1 - t0) / 1000);
        convert.push((performance.now() - t1) / 1000);
      }
      out[name] = { median: median(query), min: Math.min(...query), toJs: median(convert), rows };
    }
  });
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else if (mode === "stages") {
  const t0 = performance.now();
  const ingest = await import("../dist/ingest/index.js");
  const { analyze } = await import("../dist/core/index.js");
  const { formatReportJson } = await import("../dist/report/json.js");
  const imports = (performance.now() - t0) / 1000;
  const options = aggregatedInput ? { file } : { file, doc: "doc_id", metrics: ["hit"] };
  const readTable = () => (aggregatedInput ? ingest.readAggregates(options) : ingest.readResults(options));
  const read = await timed(readTable);
  const hash = await timed(() => ingest.sha256File(file));
  const both = await timed(() => Promise.all([readTable(), ingest.sha256File(file)]));
  const table = read.value;
  const group = table.groups[0];
  const options95 = { level: 0.95, population: null, estimand: null };
  const analysis = await timed(() => analyze(group.stats, options95));
  const aggregatesHash = await timed(() => ingest.sha256Aggregates([group]));
  const report = await timed(
    () =>
      formatReportJson({
        command: "ragci analyze",
        version: "bench",
        inputs: [{ file, sha256: hash.value, format: table.format, rows: table.rows, kind: "x" }],
        entries: [
          {
            metric: group.metric,
            system: group.system,
            analysis: analysis.value,
            aggregatesSha256: aggregatesHash.value,
          },
        ],
        aggregatesFile: null,
        summation: table.summation,
      }).length,
  );
  const pick = ({ median: m, min }) => ({ median: m, min });
  process.stdout.write(
    `${JSON.stringify({
      imports,
      read: pick(read),
      sha256File: pick(hash),
      concurrent: pick(both),
      analyze: pick(analysis),
      sha256Aggregates: pick(aggregatesHash),
      formatReportJson: pick(report),
      documents: group.stats.ids.length,
    })}\n`,
  );
} else {
  throw new Error("usage: node bench/probe.mjs sql|stages FILE REPEATS [VARIANT...] [--aggregated]");
}
