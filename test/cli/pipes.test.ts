import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, EXAMPLE, ROOT, scratchDir } from "./runCli.js";

// Inputs that can be read only once — bash's <(…), /dev/stdin, `-`, a named pipe (FIFO) —
// read like the file they carry. Each run goes through bash so that <(…) and mkfifo are real.
const dir = scratchDir();
const TREC = join(ROOT, "test/fixtures/realTools/trec_eval");
const ANALYZE = ["--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25", "--json"];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

/** Runs a bash script in which `ragci` is the built CLI. */
function bash(script: string, options: { input?: string; env?: Record<string, string> } = {}): Run {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  const start = process.hrtime.bigint();
  const ragci = 'ragci() { "$RAGCI_NODE" "$RAGCI_CLI" "$@"; }';
  const result = spawnSync("bash", ["-c", `${ragci}\n${script}`], {
    cwd: dir,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...process.env,
      NO_COLOR: "1",
      RAGCI_NODE: process.execPath,
      RAGCI_CLI: CLI,
      ...options.env,
    },
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, seconds };
}

function quote(args: readonly string[]): string {
  return args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
}

/** The JSON report of a run that must succeed. */
function report(run: Run): Record<string, any> {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

/** What must not depend on how the bytes arrived: the analyses and the input's hash and size. */
function outcome(r: Record<string, any>) {
  const [input] = r.inputs as { sha256: string; format: string; rows: number }[];
  return { analyses: r.analyses, sha256: input?.sha256, format: input?.format, rows: input?.rows };
}

const fromFile = report(bash(`ragci analyze ${quote([EXAMPLE, ...ANALYZE])}`));

describe("pipes read like the file", () => {
  it("bash's <(cat file.csv), without --format: the format told from the content, said in a note", () => {
    const piped = report(bash(`ragci analyze <(cat ${quote([EXAMPLE])}) ${quote(ANALYZE)}`));
    expect(outcome(piped)).toEqual(outcome(fromFile));
    expect(piped.inputs[0].file).toMatch(/^\/dev\/fd\/\d+$/);
    expect(piped.notes).toContain(`${piped.inputs[0].file}: read as CSV (told from its content)`);
  });

  it("/dev/stdin", () => {
    const piped = report(
      bash(`ragci analyze /dev/stdin ${quote(ANALYZE)}`, { input: readFileSync(EXAMPLE, "utf8") }),
    );
    expect(outcome(piped)).toEqual(outcome(fromFile));
    expect(piped.inputs[0].file).toBe("/dev/stdin");
  });

  it("- without --format", () => {
    const piped = report(
      bash(`ragci analyze - ${quote(ANALYZE)}`, { input: readFileSync(EXAMPLE, "utf8") }),
    );
    expect(outcome(piped)).toEqual(outcome(fromFile));
    expect(piped.inputs[0].file).toBe("stdin");
  });

  it("a named pipe (mkfifo) with a writer, its name's extension kept", () => {
    const piped = report(
      bash(
        `mkfifo results.csv && (cat ${quote([EXAMPLE])} > results.csv &) && ragci analyze results.csv ${quote(ANALYZE)}; rm -f results.csv`,
      ),
    );
    expect(outcome(piped)).toEqual(outcome(fromFile));
    expect(piped.notes).toEqual(fromFile.notes);
  });

  it("compare reads a pipe holding both systems", () => {
    const args = ["--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25,tfidf", "--json"];
    const file = report(bash(`ragci compare ${quote([EXAMPLE, ...args])}`));
    const piped = report(bash(`ragci compare <(cat ${quote([EXAMPLE])}) ${quote(args)}`));
    const { inputs: fileInputs, notes: _, ...fileRest } = file;
    const { inputs: pipeInputs, notes, ...pipeRest } = piped;
    expect(pipeRest).toEqual(fileRest);
    expect(pipeInputs[0].sha256).toBe(fileInputs[0].sha256);
    expect(notes).toContain(`${pipeInputs[0].file}: read as CSV (told from its content)`);
  });

  it("trec_eval -q -m all_trec output and its --doc-map, both through <(…)", () => {
    const args = ["--metric", "mrr", "--json"];
    const output = join(TREC, "all_trec.txt");
    const map = join(TREC, "doc-map.csv");
    const files = report(bash(`ragci analyze ${quote([output, "--doc-map", map, ...args])}`));
    const pipes = report(
      bash(
        `ragci analyze <(cat ${quote([output])}) --doc-map <(cat ${quote([map])}) ${quote(args)}`,
      ),
    );
    expect(outcome(pipes)).toEqual(outcome(files));
    expect(pipes.inputs[0].format).toBe("trec_eval");
  });
});

describe("a tool's output through a pipe to a command that reads tables only", () => {
  // A real promptfoo output (test/fixtures/realTools/promptfoo/README.md).
  const PROMPTFOO = join(ROOT, "test/fixtures/realTools/promptfoo/results.json");
  const PLAN = ["--metric", "hit5", "--system", "system=bm25", "--half-width", "0.1"];
  /** One line on stderr, exit 2, nothing on stdout, no temporary copy named. */
  const refused = (run: Run) => {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toContain("ragci-pipe");
    expect(run.stderr).not.toContain("cannot tell the format");
    return run.stderr;
  };

  it("plan <(cat results.json): the pipe named, and ragci aggregate given the same pipe", () => {
    const stderr = refused(bash(`ragci plan <(cat ${quote([PROMPTFOO])}) ${quote(PLAN)}`));
    expect(stderr).toMatch(
      /^ragci: \/dev\/fd\/\d+: promptfoo's output; plan reads results tables only \(CSV, TSV, JSONL, Parquet\): write its per-document table with `ragci aggregate <\(…\) --doc … --metric … -o perdoc\.csv`, then run `ragci plan perdoc\.csv --aggregated`/,
    );
  });

  it("plan - and strata /dev/stdin: standard input named as given", () => {
    const input = readFileSync(PROMPTFOO, "utf8");
    const dash = refused(bash(`ragci plan - ${quote(PLAN)}`, { input }));
    expect(dash).toMatch(/^ragci: stdin: promptfoo's output; plan reads results tables only/);
    expect(dash).toContain("`ragci aggregate - --doc");
    const strata = ["--metric", "hit5", "--system", "system=bm25", "--documents", "4"];
    const named = refused(bash(`ragci strata /dev/stdin ${quote(strata)}`, { input }));
    expect(named).toMatch(/^ragci: \/dev\/stdin: promptfoo's output; strata reads results tables/);
  });

  it("simulate with --judge, and merge, through pipes", () => {
    const facets = refused(
      bash(`ragci simulate <(cat ${quote([PROMPTFOO])}) --metric hit5 --judge judge --k 4`),
    );
    expect(facets).toMatch(/^ragci: \/dev\/fd\/\d+: promptfoo's output; simulate reads results/);
    expect(facets).toContain("ragci analyze and compare read the tool's output with its facets");
    const merge = refused(bash(`ragci merge <(cat ${quote([PROMPTFOO])})`));
    // As for a file given to merge: the reader knows the command.
    expect(merge).toMatch(
      /^ragci: \/dev\/fd\/\d+: promptfoo's output; merge adds per-document tables only: write one with `ragci aggregate <\(…\) --doc … --metric … -o perdoc\.csv`, then merge the tables/,
    );
  });

  it("the advice followed through pipes: aggregate <(…), then plan --aggregated", () => {
    const run = bash(
      `ragci aggregate <(cat ${quote([PROMPTFOO])}) --doc vars.doc --metric hit5 -o perdoc.csv >/dev/null && ragci plan perdoc.csv --aggregated ${quote(PLAN)} --json`,
    );
    expect(run.code, run.stderr).toBe(0);
    const rows = readFileSync(join(dir, "perdoc.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .filter((l) => l.startsWith("bm25,"));
    expect(JSON.parse(run.stdout).source.documents).toBe(rows.length);
  });
});

describe("pipes that cannot be read say so in one line", () => {
  it("a named pipe no program writes to: exit 2 after the wait, not a hang", () => {
    const run = bash(
      // A hang is killed after 30 s (the old behaviour), so that no process is left behind.
      `mkfifo lonely.csv && timeout -s KILL 30 "$RAGCI_NODE" "$RAGCI_CLI" analyze lonely.csv ${quote(ANALYZE)}; code=$?; rm -f lonely.csv; exit $code`,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "ragci: lonely.csv: FIFO has no writer after 10 s; start the program that writes to it first (or give a file)\n",
    );
    expect(run.seconds).toBeGreaterThanOrEqual(10);
    expect(run.seconds).toBeLessThan(25);
  }, 60_000);

  it("an empty pipe", () => {
    const run = bash(`ragci analyze <(true) ${quote(ANALYZE)}`);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^ragci: \/dev\/fd\/\d+: nothing was read from it; there is nothing to analyse\n$/,
    );
  });
});
