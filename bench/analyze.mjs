// Timings of ragci against reference implementations, in one run (one file per case in
// bench/cases/, the Python references in bench/py/, timing and the build in bench/harness.mjs):
//   1. cr2 + ν (and the whole analyze()) in-process on K = 10⁶ documents, vs numpy O(K);
//   2. the article's K×K numpy code on K = 10⁴ vs the whole `ragci analyze --aggregated`
//      process on K = 10⁶;
//   3. `ragci analyze` on a 10-million-row per-query CSV (and its Parquet copy) vs pandas
//      read_csv + groupby, with peak memory;
//   4. where ragci's time goes.
// Prints a table and writes bench/RESULTS.md.
//
// Build first (npx tsc -p tsconfig.build.json), then: node bench/analyze.mjs
//   --skip-investigation   only the comparison table (cases 1–3)
//   --snapshot             benchmark a copy of the working tree's src/, built in bench/out/
//   --head                 benchmark the committed HEAD, built into bench/out/head/dist
//   --dist DIR             benchmark another build of dist/
// Inputs are generated (seeded) into bench/out/ and reused when already there; needs python3
// with numpy and scipy, and /usr/bin/python3 with pandas (Debian's python3-pandas).
import { articleKxK } from "./cases/articleKxK.mjs";
import { inProcess } from "./cases/inProcess.mjs";
import { investigation } from "./cases/investigation.mjs";
import { perQuery } from "./cases/perQuery.mjs";
import { createContext, elapsedSeconds } from "./harness.mjs";
import { writeReport } from "./report.mjs";

const ctx = await createContext(process.argv.slice(2));
const one = await inProcess(ctx);
const two = await articleKxK(ctx, one);
const three = await perQuery(ctx, one);
if (ctx.investigate) await investigation(ctx, one, two, three);
ctx.finish();
writeReport(ctx, elapsedSeconds());
