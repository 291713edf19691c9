// Issue 12's analyze speed targets: `ragci analyze --aggregated` with B = 9999 at K = 20 and
// B = 999 at K = 10⁴, whole process, against the article's numpy code (the K×K CR2 with
// scipy's t quantile, the macro t interval, and both document bootstrap-t intervals as the
// article describes them: macro studentised by each replicate's sd/√K, micro by its CR1), also
// a whole process, on the same per-document tables. Median of 3 runs each.
// Usage: node bench/analyzeBootstrap.mjs   (after npm run build; needs python3 with numpy, scipy)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench/out");
mkdirSync(out, { recursive: true });
const python = process.env.PYTHON ?? "python3";

const ARTICLE = join(root, "bench/py/article_bootstrap.py");

function table(name, K, seed) {
  const path = join(out, name);
  execFileSync(python, [join(root, "bench/py/perdoc_table.py"), path, String(K), String(seed)]);
  return path;
}

function time(command, args) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 26 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr}`);
    runs.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  return runs.sort((a, b) => a - b)[1];
}

const cases = [
  { K: 20, B: 9999, file: table("perdoc-k20.csv", 20, 5) },
  { K: 10_000, B: 999, file: table("perdoc-k1e4.csv", 10_000, 3) },
];
const lines = [
  "| case | ragci analyze | the article's numpy code | ratio (numpy / ragci) |",
  "|---|---:|---:|---:|",
];
for (const c of cases) {
  const ragci = time(process.execPath, [
    join(root, "dist/bundle/ragci.js"),
    "analyze",
    c.file,
    "--aggregated",
    "--replicates",
    String(c.B),
    "--json",
  ]);
  const numpy = time(python, [ARTICLE, c.file, String(c.B)]);
  lines.push(
    `| K = ${c.K}, B = ${c.B} | ${ragci.toFixed(2)} s | ${numpy.toFixed(2)} s | ${(numpy / ragci).toFixed(2)}× |`,
  );
}
const text = `${lines.join("\n")}\n`;
writeFileSync(join(out, "analyze-bootstrap.md"), text);
process.stdout.write(text);
