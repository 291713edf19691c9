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

const ARTICLE = `
import sys
import numpy as np
from scipy import stats
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
B = int(sys.argv[2])
n, s = data[:, 0], data[:, 1]
K, N = len(n), n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se_micro = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices(K)] += a**2 * n
df_micro = np.trace(M)**2 / np.sum(M * M)
ci_micro = R + np.array([-1, 1]) * stats.t.ppf(0.975, df_micro) * se_micro
r = s / n
se_macro = r.std(ddof=1) / np.sqrt(K)
ci_macro = r.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, K - 1) * se_macro
rng = np.random.default_rng(1)
idx = rng.integers(0, K, (B, K))
rb = r[idx]
sd = rb.std(1, ddof=1)
tb = (rb.mean(1)[sd > 0] - r.mean()) / (sd[sd > 0] / np.sqrt(K))
lo, hi = np.quantile(tb, [0.025, 0.975])
boot_macro = (r.mean() - hi * se_macro, r.mean() - lo * se_macro)
nb, sb = n[idx], s[idx]
Rb = sb.sum(1) / nb.sum(1)
ub = sb - Rb[:, None] * nb
cr1 = np.sqrt(K / (K - 1) * (ub**2).sum(1)) / nb.sum(1)
ok = cr1 > 0
tm = (Rb[ok] - R) / cr1[ok]
lo, hi = np.quantile(tm, [0.025, 0.975])
se_cr1 = np.sqrt(K / (K - 1) * np.sum(u**2)) / N
boot_micro = (R - hi * se_cr1, R - lo * se_cr1)
print(ci_micro, ci_macro, boot_macro, boot_micro)
`;

function table(name, K, seed) {
  const path = join(out, name);
  execFileSync(python, [
    "-c",
    `import numpy as np\nrng = np.random.default_rng(${seed})\nn = 1 + np.floor(rng.lognormal(1, 1, ${K})).astype(int)\ns = rng.binomial(n, 0.5)\nopen(${JSON.stringify(path)}, "w").write("doc,n,s\\n" + "".join(f"d{i},{a},{b}\\n" for i, (a, b) in enumerate(zip(n, s))))`,
  ]);
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
    join(root, "dist/cli/main.js"),
    "analyze",
    c.file,
    "--aggregated",
    "--replicates",
    String(c.B),
    "--json",
  ]);
  const numpy = time(python, ["-c", ARTICLE, c.file, String(c.B)]);
  lines.push(
    `| K = ${c.K}, B = ${c.B} | ${ragci.toFixed(2)} s | ${numpy.toFixed(2)} s | ${(numpy / ragci).toFixed(2)}× |`,
  );
}
const text = `${lines.join("\n")}\n`;
writeFileSync(join(out, "analyze-bootstrap.md"), text);
process.stdout.write(text);
