// Ingestion speed on the 10⁷-row CSV (issue 15, "Speed"): whole processes, same run, medians
// of 3, peak RSS from the kernel (getrusage of the child via /usr/bin/time, or VmHWM polling):
//   1. ragci analyze --replicates 0 --json (the CLI as built in dist/)
//   2. DuckDB alone: a plain node script loading @duckdb/node-api that runs the GROUP BY
//      (count(*), sum(hit) per doc_id, rows fetched into JS)
//   3. pandas read_csv + groupby size/sum (Debian's /usr/bin/python3)
// The CSV (bench/out/results-10m.csv, 50,000 documents) is generated when missing, and a copy
// without its query_id column (results-10m-noquery.csv). Above 2·10⁶ rows ragci does not check
// the query ids for repeats unless --query names the column (it says so among the input
// warnings): a second GROUP BY over 10⁷ ids that DuckDB's one GROUP BY and pandas do not do. So
// the targets are read on rows 1–3; row 4 times ragci with --query query_id, the check included.
// With --1e8: ragci analyze on a 10⁸-row Parquet written by DuckDB (bench/out/results-1e8.parquet,
// 500,000 documents), once, with its peak memory; on a terminal (script(1)) to see the bar; and
// once with --query query_id (the check of 10⁸ ids, out of core).
//   node bench/ingest.mjs [--repeats N] [--1e8]
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureResultsCsv, ensureResultsParquet } from "./generate.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench", "out");
// The entry users run (package.json "bin"): the bundle that `npm run build` writes.
const CLI = path.join(
  ROOT,
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).bin.ragci,
);
const CSV = path.join(OUT, "results-10m.csv");
const at = process.argv.indexOf("--repeats");
const REPEATS = at > 0 ? Number(process.argv[at + 1]) : 3;
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const TIME_FILE = path.join(tmpdir(), `ragci-bench-time-${process.pid}`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Peak RSS without /usr/bin/time: the child's VmHWM, polled every 10 ms. */
function pollingHwm(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let hwmKb = 0;
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    const timer = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
      } catch {}
    }, 10);
    child.on("close", (status) => {
      clearInterval(timer);
      resolve({ status, stdout, rssKb: hwmKb });
    });
  });
}

/** One whole process: wall time around the spawn, peak RSS, stdout. */
async function runOnce(command, args) {
  const t0 = process.hrtime.bigint();
  let r;
  if (TIME) {
    const s = spawnSync(TIME, ["-f", "%M", "-o", TIME_FILE, command, ...args], {
      maxBuffer: 1 << 28,
    });
    r = {
      status: s.status,
      stdout: String(s.stdout),
      stderr: String(s.stderr),
      rssKb: Number(readFileSync(TIME_FILE, "utf8").trim().split("\n").at(-1)),
    };
  } else r = await pollingHwm(command, args);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.stderr}`);
  return { ...r, seconds };
}

/** The three contenders interleaved, so that a slow moment of the machine hits each alike. */
async function measure(contenders) {
  const runs = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < REPEATS; i++)
    for (const c of contenders) runs[c.name].push(await runOnce(c.command, c.args));
  return contenders.map((c) => ({
    name: c.name,
    seconds: median(runs[c.name].map((r) => r.seconds)),
    all: runs[c.name].map((r) => r.seconds),
    rssMb: Math.max(...runs[c.name].map((r) => r.rssKb)) / 1024,
    stdout: runs[c.name][0].stdout,
  }));
}

const DUCKDB_ALONE = `
const { DuckDBInstance } = require(${JSON.stringify(path.join(ROOT, "node_modules", "@duckdb", "node-api"))});
(async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(
    "SELECT doc_id, count(*) AS n, sum(hit) AS s FROM read_csv(" + JSON.stringify(process.argv[2]).replaceAll('"', "'") + ") GROUP BY doc_id",
  );
  const rows = reader.getRowObjectsJS();
  let n = 0, s = 0;
  for (const r of rows) { n += Number(r.n); s += Number(r.s); }
  console.log(JSON.stringify({ documents: rows.length, rows: n, hits: s }));
})();
`;

const PANDAS = `
import json, sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
g = df.groupby("doc_id")["hit"].agg(["size", "sum"])
print(json.dumps({"documents": len(g), "rows": int(g["size"].sum()), "hits": int(g["sum"].sum())}))
`;

const generated = ensureResultsCsv(CSV, 10_000_000, 50_000, 20240601);
console.log(generated.reused ? "reusing bench/out/results-10m.csv" : "generated the CSV");
const NOQUERY = path.join(OUT, "results-10m-noquery.csv");
if (!existsSync(NOQUERY) || statSync(NOQUERY).mtimeMs < statSync(CSV).mtimeMs) {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const q = (p) => `'${p.replaceAll("'", "''")}'`;
  await connection.run(
    `COPY (SELECT doc_id, hit FROM read_csv(${q(CSV)}, types = {'doc_id': 'VARCHAR'})) TO ${q(NOQUERY)} (HEADER)`,
  );
  connection.closeSync();
  instance.closeSync();
}
const script = path.join(tmpdir(), `ragci-duckdb-alone-${process.pid}.cjs`);
writeFileSync(script, DUCKDB_ALONE);
const python = "/usr/bin/python3";
const pandasVersion = execFileSync(python, ["-c", "import pandas; print(pandas.__version__)"])
  .toString()
  .trim();
const duckdbVersion = JSON.parse(
  readFileSync(path.join(ROOT, "node_modules", "@duckdb", "node-api", "package.json"), "utf8"),
).version;
const analyzeArgs = (file, ...more) => [
  CLI,
  "analyze",
  file,
  "--doc",
  "doc_id",
  "--metric",
  "hit",
  "--replicates",
  "0",
  "--json",
  ...more,
];

/**
 * ragci, DuckDB alone and pandas on one file: times, peak memory, and that they agree; with
 * `query`, also ragci checking that column's ids (--query).
 */
async function compareOn(file, label, query = null) {
  const results = await measure([
    { name: "ragci analyze --replicates 0", command: process.execPath, args: analyzeArgs(file) },
    { name: "DuckDB alone (GROUP BY)", command: process.execPath, args: [script, file] },
    {
      name: `pandas ${pandasVersion} read_csv + groupby`,
      command: python,
      args: ["-c", PANDAS, file],
    },
    ...(query
      ? [
          {
            name: `ragci … --query ${query} (ids checked)`,
            command: process.execPath,
            args: analyzeArgs(file, "--query", query),
          },
        ]
      : []),
  ]);
  const [ragci, duckdb, pandas, checked] = results;
  const report = JSON.parse(ragci.stdout);
  const [analysis] = report.analyses;
  const alone = JSON.parse(duckdb.stdout);
  const pd = JSON.parse(pandas.stdout);
  // The three read the same rows: documents, rows and hits agree.
  // With --query the report is the same but for the note that the ids were not checked.
  const checkedReport = checked ? JSON.parse(checked.stdout) : null;
  const sameReport =
    checkedReport === null ||
    JSON.stringify({ ...checkedReport, notes: [] }) === JSON.stringify({ ...report, notes: [] });
  const same =
    sameReport &&
    analysis.documents === alone.documents &&
    alone.documents === pd.documents &&
    analysis.results === alone.rows &&
    alone.rows === pd.rows &&
    alone.hits === pd.hits &&
    Math.abs(analysis.micro.estimate - pd.hits / pd.rows) < 1e-15;
  console.log(`\n${label}`);
  for (const r of results)
    console.log(
      `  ${r.name.padEnd(44)} ${r.seconds.toFixed(2)} s  (runs ${r.all.map((s) => s.toFixed(2)).join(", ")}), peak ${r.rssMb.toFixed(0)} MB`,
    );
  for (const warning of report.notes) console.log(`  ragci says: ${warning}`);
  if (checkedReport)
    console.log(
      `  with --query: ${JSON.stringify(checkedReport.notes)} (otherwise the same report: ${sameReport})`,
    );
  console.log(
    `  ragci / DuckDB alone = ${(ragci.seconds / duckdb.seconds).toFixed(2)} (goal ≤ 1.3); pandas / ragci = ${(pandas.seconds / ragci.seconds).toFixed(2)} (goal ≥ 5)`,
  );
  console.log(
    `  same rows read: ${same} (${alone.documents} documents, ${alone.rows} rows, ${alone.hits} hits)`,
  );
  if (!same) process.exitCode = 1;
}

/** ragci on the 10⁸-row Parquet: once piped (time, peak memory), once on a terminal (the bar). */
async function hundredMillion() {
  const parquet = path.join(OUT, "results-1e8.parquet");
  const made = await ensureResultsParquet(parquet, 100_000_000, 500_000);
  console.log(
    `\n10⁸ rows as Parquet (${(statSync(parquet).size / 2 ** 30).toFixed(2)} GiB${made.reused ? "" : `, written in ${made.seconds.toFixed(0)} s`})`,
  );
  const args = analyzeArgs(parquet);
  const run = await runOnce(process.execPath, args);
  const [report] = JSON.parse(run.stdout).analyses;
  console.log(
    `  ragci analyze --replicates 0: ${run.seconds.toFixed(1)} s, peak ${(run.rssKb / 2 ** 20).toFixed(2)} GiB, ${report.documents} documents, ${report.results} results, micro ${report.micro.estimate}`,
  );
  if (existsSync("/usr/bin/script")) {
    const tty = spawnSync(
      "/usr/bin/script",
      [
        "-qec",
        `${[process.execPath, ...args].map((a) => `'${a}'`).join(" ")} > /dev/null`,
        "/dev/null",
      ],
      { maxBuffer: 1 << 24 },
    );
    const frames = String(tty.stdout)
      .split("\r")
      .filter((f) => f.includes("%"));
    console.log(
      `  on a terminal: ${frames.length} progress frames, e.g. ${JSON.stringify(
        frames.at(-1)?.replaceAll("\u001b[2K", "").trim(),
      )}`,
    );
  }
  const checked = await runOnce(process.execPath, analyzeArgs(parquet, "--query", "query_id"));
  console.log(
    `  with --query query_id (10⁸ ids checked): ${checked.seconds.toFixed(1)} s, peak ${(checked.rssKb / 2 ** 20).toFixed(2)} GiB, warnings ${JSON.stringify(JSON.parse(checked.stdout).notes)}`,
  );
}

try {
  console.log(
    `node ${process.version}, DuckDB (node-api) ${duckdbVersion}, pandas ${pandasVersion}; medians of ${REPEATS}`,
  );
  await compareOn(
    CSV,
    "10⁷ rows doc_id,query_id,hit (CSV, 210 MB); the query ids are checked only with --query",
    "query_id",
  );
  await compareOn(
    NOQUERY,
    "the same rows without query_id (doc_id,hit): the same work for the three",
  );
  if (process.argv.includes("--1e8")) await hundredMillion();
} finally {
  rmSync(script, { force: true });
  rmSync(TIME_FILE, { force: true });
}
