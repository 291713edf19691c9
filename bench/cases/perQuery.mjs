// 3. `ragci analyze` on a 10-million-row per-query CSV (and its Parquet copy) against pandas
// read_csv + groupby (bench/py/pandas_groupby.py), whole processes with peak memory.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { ensureResultsCsv } from "../generate.mjs";
import {
  defaultRow,
  fmtMb,
  fmtTime,
  fmtTimed,
  log,
  median,
  OUT,
  timeProcess,
} from "../harness.mjs";

export const ROWS = 10_000_000;
export const ROW_DOCS = 50_000;

/** The CSV's Parquet copy, written by DuckDB when missing or older than the CSV. */
async function parquetCopy(csv, parquet) {
  if (existsSync(parquet) && statSync(parquet).mtimeMs >= statSync(csv).mtimeMs) return;
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const q = (p) => `'${p.replaceAll("'", "''")}'`;
  await connection.run(
    `COPY (SELECT * FROM read_csv(${q(csv)})) TO ${q(parquet)} (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  log(`  wrote Parquet copy in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

export async function perQuery(ctx, { extrapolate }) {
  const { cli } = ctx;
  log(`3. per-query file: ${ROWS} rows, ${ROW_DOCS} documents`);
  const csv = path.join(OUT, "results-10m.csv");
  const parquet = path.join(OUT, "results-10m.parquet");
  const generated = ensureResultsCsv(csv, ROWS, ROW_DOCS, 20240601);
  log(
    generated.reused
      ? "  reusing bench/out/results-10m.csv"
      : `  generated CSV in ${generated.seconds.toFixed(1)} s`,
  );
  await parquetCopy(csv, parquet);
  const csvMb = statSync(csv).size / 2 ** 20;
  const parquetMb = statSync(parquet).size / 2 ** 20;

  const csvOut = path.join(OUT, "ragci-results-csv.json");
  const rowArgs = ["--doc", "doc_id", "--metric", "hit", "--json", "--replicates", "0"];
  const cliCsv = await timeProcess(
    "ragci CSV",
    process.execPath,
    [cli, "analyze", csv, ...rowArgs],
    {
      stdoutFile: csvOut,
    },
  );
  const cliParquet = await timeProcess(
    "ragci Parquet",
    process.execPath,
    [cli, "analyze", parquet, ...rowArgs],
    { stdoutFile: path.join(OUT, "ragci-results-parquet.json") },
  );
  const pandas = await ctx.python("pandas_groupby.py", [csv], { pandas: true });
  const pandasTime = pandas.process;
  log(`  pandas CSV: ${fmtTimed(pandasTime)}, peak ${fmtMb(pandasTime.rssMb)}`);
  const split = (key) => median(pandas.outputs.map((r) => r[key]));
  const [csvJson] = JSON.parse(readFileSync(csvOut, "utf8")).analyses;
  const p = pandas.outputs[0];
  ctx.checks.push(
    `10M-row CSV: ragci ${csvJson.documents} documents, ${csvJson.results} results, micro ${csvJson.micro.estimate}; ` +
      `pandas ${p.documents} groups, ${p.rows} rows, ${p.hits} hits (micro ${p.hits / p.rows})`,
  );
  ctx.details.push(
    `pandas, 10M rows: import ${fmtTime(split("import"))}, read_csv ${fmtTime(split("read"))}, groupby ${fmtTime(split("groupby"))} (medians)`,
  );
  const pandasName = "pandas read_csv + groupby size/sum, whole process";
  ctx.rows.push(
    {
      case: `3a. ragci analyze --replicates 0, 10M-row CSV (${csvMb.toFixed(0)} MB)`,
      ragci: cliCsv,
      reference: pandasTime,
      referenceName: pandasName,
      target: "≥ 4× faster, less memory",
      met: pandasTime.median / cliCsv.median >= 4 && cliCsv.rssMb < pandasTime.rssMb,
    },
    {
      case: `3b. ragci analyze --replicates 0, same rows as Parquet (${parquetMb.toFixed(0)} MB)`,
      ragci: cliParquet,
      reference: pandasTime,
      referenceName: ctx.pandasParquet
        ? "pandas on the CSV"
        : "pandas on the CSV (no pyarrow/fastparquet for read_parquet)",
      target: "(informational)",
      met: null,
    },
    defaultRow(
      {
        case: "3c. ragci analyze (default: B = 9999 bootstrap), 10M-row CSV",
        reference: pandasTime,
        referenceName: pandasName,
        target: "≥ 4× faster",
      },
      [cli, "analyze", csv, "--doc", "doc_id", "--metric", "hit", "--json"],
      extrapolate(ROW_DOCS, cliCsv.median),
    ),
  );
  ctx.inputs = { csvMb, parquetMb };
  return { csv, parquet, cliCsv };
}
