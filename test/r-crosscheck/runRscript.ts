import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** R's answers: per data-set id, quantity → value; the R and package versions; the run time. */
export interface RRun {
  readonly values: Map<string, Map<string, number>>;
  readonly versions: Map<string, string>;
  readonly seconds: number;
}

export interface RscriptOptions {
  /** The R script beside the test; called as `Rscript --vanilla SCRIPT input.json output.csv`. */
  readonly script: string;
  /** Named in the "Rscript not found" message, e.g. "clubSandwich, survey and jsonlite". */
  readonly packages: string;
  /** Prefix of the temporary directory. */
  readonly name: string;
  readonly timeoutMs: number;
}

/**
 * One Rscript run for all the data sets of a test file, memoised: `run()` runs R
 * on first call (writing `input()` as JSON) and parses its `id,quantity,value` lines (id −1
 * carries `version.*`). A missing Rscript or a failing script throws, so the calling tests
 * fail, never skip. RSCRIPT=/path/to/Rscript picks another R; RAGCI_R_CROSSCHECK_KEEP=DIR keeps
 * R's input and output in DIR.
 */
export function rscriptOnce(
  options: RscriptOptions,
  input: () => unknown,
): { readonly run: () => RRun; readonly completed: () => RRun | undefined } {
  let result: RRun | Error | undefined;
  const run = () => {
    if (result === undefined) {
      const rscript = process.env.RSCRIPT ?? "Rscript";
      const keep = process.env.RAGCI_R_CROSSCHECK_KEEP;
      if (keep) mkdirSync(keep, { recursive: true });
      const dir = keep ?? mkdtempSync(join(tmpdir(), `${options.name}-`));
      try {
        const inputPath = join(dir, `${options.name}.json`);
        const outputPath = join(dir, `${options.name}-r-values.csv`);
        writeFileSync(inputPath, JSON.stringify(input()));
        const started = performance.now();
        const run = spawnSync(rscript, ["--vanilla", options.script, inputPath, outputPath], {
          encoding: "utf8",
          timeout: options.timeoutMs,
        });
        const seconds = (performance.now() - started) / 1000;
        if (run.error) {
          const code = (run.error as NodeJS.ErrnoException).code;
          throw new Error(
            code === "ENOENT"
              ? `Rscript not found ("${rscript}"): the R cross-check needs R >= 4.2 with ${options.packages} on PATH (or RSCRIPT=/path/to/Rscript)`
              : `running ${rscript} failed: ${run.error.message}`,
          );
        }
        if (run.status !== 0) {
          throw new Error(
            `${rscript} ${options.script} exited with status ${run.status}${run.signal ? ` (signal ${run.signal})` : ""}:\n${run.stderr}`,
          );
        }
        const values = new Map<string, Map<string, number>>();
        const versions = new Map<string, string>();
        for (const line of readFileSync(outputPath, "utf8").trim().split("\n")) {
          const [id, name, value] = line.split(",") as [string, string, string];
          if (id === "-1") {
            versions.set(name.replace(/^version\./, ""), value);
            continue;
          }
          if (!values.has(id)) values.set(id, new Map());
          values.get(id)?.set(name, Number(value));
        }
        result = { values, versions, seconds };
      } catch (error) {
        result = error instanceof Error ? error : new Error(String(error));
      } finally {
        if (!keep) rmSync(dir, { recursive: true, force: true });
      }
    }
    if (result instanceof Error) throw result;
    return result;
  };
  /** The run's result if R has already run successfully (for a summary after the tests). */
  const completed = () => (result instanceof Error ? undefined : result);
  return { run, completed };
}
