// Where does `ragci analyze` spend its time? Spawned by bench/analyze.mjs, one fresh process per
// call; prints one JSON line of timings in seconds.
//   node bench/probe.mjs stages FILE REPEATS [--aggregated]
//     readResults / readAggregates from dist/ ($RAGCI_BENCH_DIST): every DuckDB query it sends,
//     timed by wrapping @duckdb/node-api, and the rest ("JS side": reading results into JS,
//     checks, documentStats); then sha256File, both concurrently (as the CLI runs them),
//     analyze(), sha256Aggregates and formatReportJson.
//   node bench/probe.mjs sql FILE REPEATS VARIANT... [--aggregated]
//     DuckDB queries alone on one instance with ragci's settings. "ragci" is the query that
//     readResults/readAggregates actually sends (captured, not copied); "ragci-double" is the
//     same with every sum(CAST(x AS DECIMAL(38, 18)))::DOUBLE replaced by sum(x), and
//     "ragci-decimal" the same with every sum(v) / sum(v * v) summed in DECIMAL(38, 18).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBResult,
  DuckDBResultReader,
} from "@duckdb/node-api";

// The build under test (bench/analyze.mjs --dist); dist/ by default.
const DIST = process.env.RAGCI_BENCH_DIST ?? fileURLToPath(new URL("../dist", import.meta.url));
const distModule = (p) => import(pathToFileURL(path.join(DIST, p)).href);

const argv = process.argv.slice(2);
const aggregatedInput = argv.includes("--aggregated");
const [mode, file, repeatsText, ...variantNames] = argv.filter((a) => a !== "--aggregated");
const repeats = Number(repeatsText ?? 3);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const summary = (times) => ({ median: median(times), min: Math.min(...times) });

async function timed(work, count = repeats) {
  const times = [];
  let value;
  for (let r = 0; r < count; r++) {
    const t0 = performance.now();
    value = await work();
    times.push((performance.now() - t0) / 1000);
  }
  return { ...summary(times), value };
}

// Record every query sent through @duckdb/node-api (runAndReadAll, or run + fetchChunk) and
// every row/column conversion of a whole result.
let log = null;
let nested = false;
const runAndReadAll = DuckDBConnection.prototype.runAndReadAll;
const run = DuckDBConnection.prototype.run;
DuckDBConnection.prototype.runAndReadAll = async function (sql, ...rest) {
  const t0 = performance.now();
  nested = true;
  try {
    const reader = await runAndReadAll.call(this, sql, ...rest);
    log?.push({ kind: "query", sql, seconds: (performance.now() - t0) / 1000 });
    return reader;
  } finally {
    nested = false;
  }
};
DuckDBConnection.prototype.run = async function (sql, ...rest) {
  if (nested) return run.call(this, sql, ...rest);
  const t0 = performance.now();
  const result = await run.call(this, sql, ...rest);
  log?.push({ kind: "query", sql, seconds: (performance.now() - t0) / 1000 });
  return result;
};
// Fetching result chunks (after run): summed into one entry per query.
const fetchChunk = DuckDBResult.prototype.fetchChunk;
DuckDBResult.prototype.fetchChunk = async function () {
  const t0 = performance.now();
  const chunk = await fetchChunk.call(this);
  if (log && !nested) {
    const last = log.at(-1);
    const seconds = (performance.now() - t0) / 1000;
    if (last?.kind === "fetch") last.seconds += seconds;
    else log.push({ kind: "fetch", seconds });
  }
  return chunk;
};
for (const method of ["getColumnsJS", "getRowsJS", "getRowObjectsJS"]) {
  const original = DuckDBResultReader.prototype[method];
  DuckDBResultReader.prototype[method] = function (...args) {
    const t0 = performance.now();
    const value = original.apply(this, args);
    log?.push({ kind: "toJs", method, seconds: (performance.now() - t0) / 1000 });
    return value;
  };
}

const ingest = await distModule("ingest/index.js");
const options = aggregatedInput ? { file } : { file, doc: "doc_id", metrics: ["hit"] };
const readTable = () =>
  aggregatedInput ? ingest.readAggregates(options) : ingest.readResults(options);

/** Runs readX once and returns what it sent to DuckDB and how long each step took. */
async function capture() {
  log = [];
  const t0 = performance.now();
  const table = await readTable();
  const total = (performance.now() - t0) / 1000;
  const entries = log;
  log = null;
  return { table, total, entries };
}

const label = (sql) => {
  const s = sql.replace(/\s+/g, " ").trim();
  if (/^DESCRIBE/i.test(s)) return "DESCRIBE (sniff the file, column types)";
  if (isQueryIdCheck(s)) return "query-id check (GROUP BY hash(query, system))";
  if (/GROUP BY/i.test(s)) return "aggregation query (GROUP BY document)";
  if (/count\(DISTINCT/i.test(s)) return "validation query (bad n/s, distinct keys)";
  if (/ORDER BY/i.test(s)) return "per-document query (no GROUP BY; ORDER BY doc)";
  return `${s.slice(0, 60)}…`;
};
/** The repeated-query check (inputNotices.ts): it groups hashes of (query, system). */
const isQueryIdCheck = (sql) => /GROUP BY h HAVING/i.test(sql);
/** The query that reads the data: the slowest one that is not DESCRIBE or the query-id check. */
const mainQuery = (entries) =>
  entries
    .filter((e) => e.kind === "query" && !/^\s*DESCRIBE/i.test(e.sql) && !isQueryIdCheck(e.sql))
    .sort((a, b) => b.seconds - a.seconds)[0]?.sql;
const toDouble = (sql) =>
  sql.replace(/sum\(CAST\((.*?) AS DECIMAL\(38, 18\)\)\)::DOUBLE/g, (_, x) => `sum(${x})`);
const finite = (v) => `CASE WHEN isfinite(${v}) THEN ${v} END`;
const toDecimal = (sql) =>
  toDouble(sql)
    .replace(
      /sum\((v\d+) \* \1\)/g,
      (_, v) => `sum(CAST(${finite(v)} * ${finite(v)} AS DECIMAL(38, 18)))::DOUBLE`,
    )
    .replace(/sum\((v\d+)\)/g, (_, v) => `sum(CAST(${finite(v)} AS DECIMAL(38, 18)))::DOUBLE`);

if (mode === "stages") {
  const t0 = performance.now();
  const { analyze } = await distModule("core/index.js");
  const { formatReportJson } = await distModule("report/json.js");
  const imports = (performance.now() - t0) / 1000;
  // Step by step (median over runs, by position in the sequence of calls).
  const runs = [];
  for (let r = 0; r < repeats; r++) runs.push(await capture());
  const steps = runs[0].entries.map((e, i) => ({
    step:
      e.kind === "query"
        ? label(e.sql)
        : e.kind === "fetch"
          ? "fetchChunk (result chunks from DuckDB)"
          : `result → JS (${e.method})`,
    ...summary(runs.map((run) => run.entries[i]?.seconds ?? Number.NaN)),
  }));
  const read = summary(runs.map((run) => run.total));
  const jsSide = summary(
    runs.map((run) => run.total - run.entries.reduce((t, e) => t + e.seconds, 0)),
  );
  const table = runs[0].table;
  const hash = await timed(() => ingest.sha256File(file));
  const both = await timed(() => Promise.all([readTable(), ingest.sha256File(file)]));
  const group = table.groups[0];
  // replicates: 0 — the analytic intervals only.
  const level = { level: 0.95, population: null, estimand: null, replicates: 0 };
  const analysis = await timed(() => analyze(group.stats, level));
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
      read,
      steps,
      jsSide,
      sha256File: pick(hash),
      concurrent: pick(both),
      analyze: pick(analysis),
      sha256Aggregates: pick(aggregatesHash),
      formatReportJson: pick(report),
      documents: group.stats.ids.length,
      summation: table.summation,
    })}\n`,
  );
} else if (mode === "sql") {
  const { entries } = await capture();
  const shipped = mainQuery(entries);
  if (!shipped) throw new Error("no aggregation query captured");
  const quote = (s) => `'${s.replaceAll("'", "''")}'`;
  const source = file.endsWith(".parquet")
    ? `read_parquet(${quote(file)})`
    : aggregatedInput
      ? `read_csv(${quote(file)}, header = true)`
      : `read_csv(${quote(file)}, header = true, types = {'doc_id': 'VARCHAR', 'hit': 'DOUBLE'})`;
  const variants = {
    scan: `SELECT max(length(doc_id)), max(hit) FROM ${source}`,
    "group-double": `SELECT doc_id, count(*), sum(hit) FROM ${source} GROUP BY doc_id`,
    "group-decimal": `SELECT doc_id, count(*), sum(CAST(hit AS DECIMAL(38, 18)))::DOUBLE FROM ${source} GROUP BY doc_id`,
    ragci: shipped,
    "ragci-double": toDouble(shipped),
    "ragci-decimal": toDecimal(shipped),
  };
  const out = {
    decimalInShipped: toDouble(shipped) !== shipped,
    doubleInShipped: toDecimal(shipped) !== shipped,
  };
  // The same settings as src/ingest/duckdb.ts withDuckDb (threads: DuckDB's default).
  const instance = await DuckDBInstance.create(":memory:", { preserve_insertion_order: "true" });
  const connection = await instance.connect();
  try {
    for (const name of variantNames) {
      if (!(name in variants)) throw new Error(`unknown variant ${name}`);
      const sql = variants[name];
      // A variant identical to the shipped query is not run twice.
      if (name !== "ragci" && sql === shipped && out.ragci) {
        out[name] = { ...out.ragci, sameAsShipped: true };
        continue;
      }
      const query = [];
      const convert = [];
      let rows = 0;
      for (let r = 0; r < repeats; r++) {
        const t0 = performance.now();
        const reader = await runAndReadAll.call(connection, sql);
        const t1 = performance.now();
        rows = reader.getColumnsJS()[0]?.length ?? 0;
        query.push((t1 - t0) / 1000);
        convert.push((performance.now() - t1) / 1000);
      }
      out[name] = { ...summary(query), toJs: median(convert), rows };
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else {
  throw new Error(
    "usage: node bench/probe.mjs stages|sql FILE REPEATS [VARIANT...] [--aggregated]",
  );
}
