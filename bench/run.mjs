// `npm run bench`: bench/analyze.mjs (the harness: bench/harness.mjs, bench/cases/, bench/py/),
// then bench/rng.mjs and bench/bootstrap.mjs when present.
// Arguments go to analyze.mjs (e.g. --snapshot, --skip-investigation); the others use dist/.
// Build dist/ first: npx tsc -p tsconfig.build.json
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const scripts = [
  [here("analyze.mjs"), process.argv.slice(2)],
  [here("rng.mjs"), []],
  [here("bootstrap.mjs"), []],
];
let status = 0;
for (const [script, args] of scripts) {
  if (!existsSync(script)) continue;
  const result = spawnSync(process.execPath, [script, ...args], { stdio: "inherit" });
  if (result.status !== 0) status = result.status ?? 1;
}
process.exitCode = status;
