// 4. Where ragci's time goes: start-up (Node, DuckDB, @stdlib), analyze() on K = 10⁶ piece by
// piece, a fused cr2 + ν sketch, and bench/probe.mjs's stage-by-stage timings of the CLI's
// reads and of DuckDB's queries alone (CSV and Parquet).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fusedCr2 } from "../fusedCr2.mjs";
import {
  fmtTime,
  fmtTimed,
  log,
  REPEATS,
  ROOT,
  relDiff,
  timeInProcess,
  timeProcess,
} from "../harness.mjs";

const SQL_VARIANTS = [
  ["scan: SELECT max(length(doc_id)), max(hit)", "scan"],
  ["GROUP BY doc_id: count(*), sum(hit) (double)", "group-double"],
  ["GROUP BY doc_id: count(*), sum(CAST(hit AS DECIMAL(38,18)))", "group-decimal"],
  ["ragci's aggregation query, as sent by readResults", "ragci"],
  ["  the same, every sum a plain double sum(x)", "ragci-double"],
  ["  the same, every sum in DECIMAL(38, 18)", "ragci-decimal"],
];

async function startup(ctx) {
  const stdlib = Object.keys(
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies ?? {},
  ).filter((d) => d.startsWith("@stdlib/"));
  const importOnly = (modules) => [
    "--input-type=module",
    "-e",
    modules.map((m) => `await import(${JSON.stringify(m)});`).join(" "),
  ];
  const cli = await timeProcess(
    `node ${path.relative(ROOT, ctx.cli)} --version`,
    process.execPath,
    [ctx.cli, "--version"],
  );
  const parts = [
    ["node -e 0 (bare Node)", await timeProcess("node -e 0", process.execPath, ["-e", "0"])],
    [
      "node: import @duckdb/node-api",
      await timeProcess("import duckdb", process.execPath, importOnly(["@duckdb/node-api"])),
    ],
    [
      `node: import the ${stdlib.length} @stdlib packages`,
      await timeProcess("import stdlib", process.execPath, importOnly(stdlib)),
    ],
  ];
  return { cli, parts };
}

/** analyze()'s pieces on K = 10⁶, and the fused sketch beside them. */
function analyzeParts(ctx, { large, stats, cr2Time, analyzeTime }) {
  const { core } = ctx;
  const iccValue = core.icc(stats);
  const parts = [
    ["documentStats (validation, copies, Set of ids)", () => core.documentStats(large)],
    [
      "documentStats with idsDistinct: true (no Set)",
      () => core.documentStats({ ...large, idsDistinct: true }),
    ],
    ["cr2 (se + ν)", () => core.cr2(stats)],
    ["cr1", () => core.cr1(stats)],
    ["macroT", () => core.macroT(stats)],
    ["waldIid", () => core.waldIid(stats)],
    ["icc", () => core.icc(stats)],
    ["kishDeff", () => core.kishDeff(stats, iccValue?.available ? iccValue.icc : 0)],
    ["sizeDistribution", () => core.sizeDistribution(stats)],
    ["rateDistribution", () => core.rateDistribution(stats)],
    ["influence (micro)", () => core.influence(stats, "micro")],
    ["influence (macro)", () => core.influence(stats, "macro")],
    ["micro + macro estimates", () => [core.microEstimate(stats), core.macroEstimate(stats)]],
  ];
  const fused = timeInProcess(() => fusedCr2(stats), { repeats: 9, warmup: 3 });
  const agree = Math.max(
    relDiff(fused.value.se, cr2Time.value.se),
    relDiff(fused.value.df, cr2Time.value.df),
  );
  return [
    ...parts.map(([name, work]) => [
      name,
      fmtTimed(timeInProcess(work, { repeats: name.startsWith("documentStats") ? 1 : REPEATS })),
    ]),
    ["analyze(stats, { replicates: 0 }) (whole)", fmtTimed(analyzeTime)],
    [
      `sketch: cr2 + ν fused, 2 passes, no temporaries (max rel. diff ${agree.toExponential(1)})`,
      fmtTimed(fused),
    ],
  ];
}

/** One read's stages as bench/probe.mjs times them. */
function stageRows(st, readName, startupTime, whole) {
  const s = fmtTimed;
  return [
    ["imports (dist/ingest, core, report)", fmtTime(st.imports)],
    [`${readName} (whole)`, s(st.read)],
    ...st.steps.map((step) => [`  ${step.step}`, s(step)]),
    ["  JS side (result → JS, checks, documentStats, …)", s(st.jsSide)],
    ["sha256File", s(st.sha256File)],
    [`${readName} ‖ sha256File (as the CLI runs them)`, s(st.concurrent)],
    [`analyze() on ${st.documents.toLocaleString("en")} documents`, s(st.analyze)],
    ["sha256Aggregates", s(st.sha256Aggregates)],
    ["formatReportJson", s(st.formatReportJson)],
    ["startup: ragci --version (whole process)", s(startupTime)],
    ["whole CLI process (table above)", s(whole)],
  ];
}

/** The DECIMAL sums' cost in ragci's aggregation query, from the SQL variants. */
function decimalFinding(where, x) {
  if (!x["ragci-decimal"] || !x["ragci-double"]) return null;
  const dec = x["ragci-decimal"].median;
  const dbl = x["ragci-double"].median;
  const shipped = x.decimalInShipped ? "DECIMAL (as sent)" : "DECIMAL";
  return (
    `${where}: ragci's aggregation query takes ${fmtTime(dec)} with ${shipped} sums vs ` +
    `${fmtTime(dbl)} with double sums${x.doubleInShipped ? " (as sent)" : ""}: DECIMAL costs ` +
    `${fmtTime(dec - dbl)} (+${(((dec - dbl) / dbl) * 100).toFixed(0)}%). Minimal GROUP BY: ` +
    `${fmtTime(x["group-decimal"].median)} (DECIMAL) vs ${fmtTime(x["group-double"].median)} ` +
    `(double); scan alone ${fmtTime(x.scan.median)}.`
  );
}

export async function investigation(ctx, inProcess, kxk, perQuery) {
  log("4. where the time goes");
  const start = await startup(ctx);
  const pieces = analyzeParts(ctx, inProcess);
  log("  probes: --aggregated stages (1 run each)");
  const agg = ctx.probe(["stages", kxk.perdocLarge, "1", "--aggregated"]);
  log("  probes: per-query CSV stages (2 runs each)");
  const csv = ctx.probe(["stages", perQuery.csv, "2"]);
  const variants = SQL_VARIANTS.map(([, key]) => key);
  log("  probes: DuckDB queries on the CSV (2 runs each)");
  const csvSql = ctx.probe(["sql", perQuery.csv, "2", ...variants]);
  log("  probes: DuckDB queries on the Parquet file (2 runs each)");
  const parquetSql = ctx.probe(["sql", perQuery.parquet, "2", ...variants]);

  const cell = (x) => (x ? `${fmtTimed(x)}${x.sameAsShipped ? " (= as sent)" : ""}` : "—");
  ctx.sections.push(
    {
      title: "Startup (whole processes)",
      headers: ["Process", "Time"],
      rows: [
        [`node ${path.relative(ROOT, ctx.cli)} --version`, fmtTimed(start.cli)],
        ...start.parts.map(([name, x]) => [name, fmtTimed(x)]),
      ],
    },
    {
      title: "analyze(stats) on K = 10⁶, piece by piece (in-process)",
      headers: ["Piece", "Time"],
      rows: pieces,
    },
    {
      title: "ragci analyze --aggregated on K = 10⁶, stage by stage (in-process, one run each)",
      headers: ["Stage", "Time"],
      rows: stageRows(agg, "readAggregates", start.cli, kxk.cliAgg),
    },
    {
      title: `ragci analyze on the 10M-row CSV, stage by stage (in-process, median of 2; sums: ${csv.summation})`,
      headers: ["Stage", "Time"],
      rows: stageRows(csv, "readResults", start.cli, perQuery.cliCsv),
    },
    {
      title:
        "DuckDB alone, same settings as ragci (one instance, median of 2; result → JS not included)",
      headers: ["Query", "CSV (10M rows)", "Parquet (10M rows)"],
      rows: SQL_VARIANTS.map(([name, key]) => [name, cell(csvSql[key]), cell(parquetSql[key])]),
    },
  );
  for (const finding of [
    decimalFinding("10M-row CSV", csvSql),
    decimalFinding("Parquet copy", parquetSql),
  ]) {
    if (finding) ctx.findings.push(finding);
  }
  const isFetch = (x) => x.step.startsWith("result") || x.step.startsWith("fetchChunk");
  const total = (steps) => steps.reduce((t, x) => t + x.median, 0);
  ctx.findings.push(
    `--aggregated K = 10⁶ (${fmtTime(kxk.cliAgg.median)} as a process): readAggregates ${fmtTime(agg.read.median)} ` +
      `(DuckDB queries ${fmtTime(total(agg.steps.filter((x) => !isFetch(x))))}, fetching/converting results ${fmtTime(total(agg.steps.filter(isFetch)))}, ` +
      `JS side ${fmtTime(agg.jsSide.median)}), analyze ` +
      `${fmtTime(agg.analyze.median)}, sha256Aggregates ${fmtTime(agg.sha256Aggregates.median)}, startup ` +
      `${fmtTime(start.cli.median)}; numpy's K×K computation on K = 10⁴ takes ${fmtTime(kxk.npCompute.median)}.`,
  );
}
