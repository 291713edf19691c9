// 2. the article's K×K code (bench/py/kxk_article.py) and the bare K×K numpy kernel
// (bench/py/kxk_numpy.py) on K = 10⁴, against the whole `ragci analyze --aggregated` process on
// K = 10⁶ (and on K = 10⁴), with the intervals cross-checked.
import { readFileSync } from "node:fs";
import path from "node:path";
import { perDocument, writePerDocumentCsv } from "../generate.mjs";
import {
  defaultRow,
  fmtMb,
  fmtTime,
  fmtTimed,
  log,
  median,
  OUT,
  relDiff,
  timeProcess,
} from "../harness.mjs";
import { K_LARGE, K_SMALL } from "./inProcess.mjs";

const ANALYTIC = ["--replicates", "0"];

export async function articleKxK(ctx, { large, cr2Time, extrapolate }) {
  const { core, cli } = ctx;
  log(`2. numpy K×K on K = ${K_SMALL} vs ragci --aggregated on K = ${K_LARGE}`);
  const perdocLarge = path.join(OUT, "perdoc-1e6.csv");
  const perdocSmall = path.join(OUT, "perdoc-1e4.csv");
  writePerDocumentCsv(perdocLarge, large);
  const small = perDocument(K_SMALL, 2);
  writePerDocumentCsv(perdocSmall, small);

  const article = await ctx.python("kxk_article.py", [perdocSmall]);
  const articleProcess = article.process;
  const split = (outputs, key) => median(outputs.map((r) => r[key]));
  log(
    `  article's code (numpy + scipy) process: ${fmtTimed(articleProcess)}, import ${fmtTime(split(article.outputs, "import"))}`,
  );
  const numpy = await ctx.python("kxk_numpy.py", [perdocSmall]);
  const npProcess = numpy.process;
  const npCompute = {
    median: split(numpy.outputs, "compute"),
    min: Math.min(...numpy.outputs.map((r) => r.compute)),
  };
  log(
    `  numpy K×K process: ${fmtTimed(npProcess)}, compute ${fmtTimed(npCompute)}, peak ${fmtMb(npProcess.rssMb)}`,
  );
  const smallCr2 = core.cr2(core.documentStats(small));
  const np = numpy.outputs[0];
  ctx.checks.push(
    `K×K numpy on K = 10⁴: se ${np.se.toPrecision(12)}, ν ${np.df.toPrecision(12)}; ragci cr2 ` +
      `se ${smallCr2.se.toPrecision(12)}, ν ${smallCr2.df.toPrecision(12)} (relative differences ` +
      `${relDiff(np.se, smallCr2.se).toExponential(1)}, ${relDiff(np.df, smallCr2.df).toExponential(1)})`,
  );

  const largeOut = path.join(OUT, "ragci-perdoc-1e6.json");
  const cliAgg = await timeProcess(
    "ragci --aggregated K = 10⁶",
    process.execPath,
    [cli, "analyze", perdocLarge, "--aggregated", "--json", ...ANALYTIC],
    { stdoutFile: largeOut },
  );
  const [aggJson] = JSON.parse(readFileSync(largeOut, "utf8")).analyses;
  const aggCr2 = aggJson.micro?.intervals?.cr2;
  ctx.checks.push(
    `ragci CLI on perdoc-1e6.csv: ${aggJson.documents} documents, cr2 se ${aggCr2?.se}, ` +
      `ν ${aggCr2?.df} (in-process cr2: relative differences ` +
      `${relDiff(aggCr2?.se, cr2Time.value.se).toExponential(1)}, ` +
      `${relDiff(aggCr2?.df, cr2Time.value.df).toExponential(1)})`,
  );
  const smallOut = path.join(OUT, "ragci-perdoc-1e4.json");
  const cliAggSmall = await timeProcess(
    "ragci --aggregated K = 10⁴",
    process.execPath,
    [cli, "analyze", perdocSmall, "--aggregated", "--json", ...ANALYTIC],
    { stdoutFile: smallOut },
  );
  const [smallJson] = JSON.parse(readFileSync(smallOut, "utf8")).analyses;
  const art = article.outputs[0];
  const cr2 = smallJson.micro?.intervals?.cr2;
  const t = smallJson.macro?.intervals?.t;
  ctx.checks.push(
    `the article's code on K = 10⁴: micro [${art.ci_micro.map((x) => x.toPrecision(12)).join(", ")}], macro [${art.ci_macro.map((x) => x.toPrecision(12)).join(", ")}]; ragci CLI cr2 [${cr2?.lower}, ${cr2?.upper}], t [${t?.lower}, ${t?.upper}] (largest relative difference ${Math.max(relDiff(art.ci_micro[0], cr2?.lower), relDiff(art.ci_micro[1], cr2?.upper), relDiff(art.ci_macro[0], t?.lower), relDiff(art.ci_macro[1], t?.upper)).toExponential(1)})`,
  );
  ctx.details.push(
    `the article's code (numpy + scipy), K = 10⁴: imports ${fmtTime(split(article.outputs, "import"))}, loadtxt ${fmtTime(split(article.outputs, "load"))}, computation ${fmtTime(split(article.outputs, "compute"))} (medians)`,
    `numpy K×K, K = 10⁴: import ${fmtTime(split(numpy.outputs, "import"))}, loadtxt ${fmtTime(split(numpy.outputs, "load"))}, computation ${fmtTimed(npCompute)}`,
  );
  const kernel = "numpy K×K whole process, K = 10⁴";
  ctx.rows.push(
    {
      case: "2a. ragci analyze --aggregated --replicates 0 process, K = 10⁶",
      ragci: cliAgg,
      reference: articleProcess,
      referenceName:
        "the article's K×K code as written (numpy + scipy, both intervals) whole process, K = 10⁴",
      target: "ragci faster",
      met: cliAgg.median < articleProcess.median,
    },
    {
      case: "2b. ragci analyze --aggregated --replicates 0 process, K = 10⁶",
      ragci: cliAgg,
      reference: npProcess,
      referenceName: "numpy K×K only (no scipy, no intervals) whole process, K = 10⁴",
      target: "(stricter)",
      met: cliAgg.median < npProcess.median,
    },
    {
      case: "2b'. ragci analyze --aggregated --replicates 0 process, K = 10⁶",
      ragci: cliAgg,
      reference: npCompute,
      referenceName: "numpy K×K computation only (perf_counter), K = 10⁴",
      target: "(stricter)",
      met: cliAgg.median < npCompute.median,
    },
    {
      case: "2c. ragci analyze --aggregated --replicates 0 process, K = 10⁴",
      ragci: cliAggSmall,
      reference: npProcess,
      referenceName: kernel,
      target: "(same K)",
      met: null,
    },
    defaultRow(
      {
        case: "2d. ragci analyze --aggregated (default: B = 9999 bootstrap), K = 10⁶",
        reference: npProcess,
        referenceName: kernel,
        target: "ragci faster",
      },
      [cli, "analyze", perdocLarge, "--aggregated", "--json"],
      extrapolate(K_LARGE, cliAgg.median),
    ),
  );
  return { perdocLarge, cliAgg, npCompute };
}
