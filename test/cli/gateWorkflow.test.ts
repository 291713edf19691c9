import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseBlockYaml, type YamlValue } from "../support/blockYaml.js";
import {
  csvOf,
  flippedCopy,
  METRIC_COLUMNS,
  readCovidqa,
  systemRows,
} from "../support/covidqaGatePairs.js";
import { CLI, ROOT, ragci, scratchDir } from "./runCli.js";

// The example is checked with the test's own parser of YAML's block subset (no YAML dependency
// in the project): it refuses whatever it cannot read, so the file has one reading.
const WORKFLOW = join(ROOT, "examples/github-workflow.yml");
const COLUMNS = ["doc_id", "query_id", ...METRIC_COLUMNS];

type Mapping = { [key: string]: YamlValue };
const isMapping = (v: YamlValue | undefined): v is Mapping =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function steps(): Mapping[] {
  const workflow = parseBlockYaml(readFileSync(WORKFLOW, "utf8"));
  if (!isMapping(workflow) || !isMapping(workflow.jobs)) throw new Error("no jobs");
  const job = workflow.jobs.gate;
  if (!isMapping(job) || !Array.isArray(job.steps)) throw new Error("no steps in jobs.gate");
  return job.steps.map((s) => {
    if (!isMapping(s)) throw new Error("a step is not a mapping");
    return s;
  });
}

/** The ragci command lines of a run script (continuations joined, comments left out). */
function ragciCommands(script: string): string[][] {
  return script
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("ragci "))
    .map((line) => {
      expect(line, "no quoting in the example's ragci lines").not.toMatch(/["'`$]/);
      return line.split(/\s+/);
    });
}

describe("examples/github-workflow.yml", () => {
  it("is a workflow: triggered by pull requests, one job of steps that each use or run", () => {
    const workflow = parseBlockYaml(readFileSync(WORKFLOW, "utf8")) as Mapping;
    expect(Object.keys(workflow)).toEqual(["name", "on", "permissions", "jobs"]);
    expect(Object.keys(workflow.on as Mapping)).toEqual(["pull_request"]);
    expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect((workflow.jobs as Mapping).gate).toMatchObject({ "runs-on": "ubuntu-latest" });
    const known = ["name", "uses", "with", "run", "if", "env", "continue-on-error"];
    for (const step of steps()) {
      expect(
        Object.keys(step).every((k) => known.includes(k)),
        JSON.stringify(step),
      ).toBe(true);
      expect(typeof step.name).toBe("string");
      expect("uses" in step !== "run" in step, `${step.name}: one of uses and run`).toBe(true);
      if ("uses" in step) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    }
    expect(steps().map((s) => s.name)).toEqual([
      "Check out the pull request",
      "Set up Node",
      "Install ragci",
      "Evaluate the base branch",
      "Evaluate the pull request",
      "Gate on retrieval quality",
      "Comment on the pull request",
    ]);
  });

  it("installs the package whose bin is ragci, and names only flags ragci compare --help lists", () => {
    const install = steps().find((s) => s.name === "Install ragci");
    expect(install?.run).toBe("npm install --global ragci");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.name).toBe("ragci");
    expect(Object.keys(pkg.bin)).toEqual(["ragci"]);
    const commands = steps().flatMap((s) =>
      typeof s.run === "string" ? ragciCommands(s.run) : [],
    );
    expect(commands.length).toBeGreaterThan(0);
    for (const [, subcommand, ...args] of commands) {
      const help = ragci([subcommand as string, "--help"]);
      expect(help.code).toBe(0);
      for (const flag of args.filter((a) => a.startsWith("-"))) {
        // An option line of the help ("  -o, --output <file>  …"), not a mention in its prose.
        const declared = flag.startsWith("--")
          ? new RegExp(`^\\s+(?:-\\w, )?${flag}(?: <|  |$)`, "m")
          : new RegExp(`^\\s+${flag}, --`, "m");
        expect(help.stdout, `${subcommand} ${flag}`).toMatch(declared);
      }
    }
  });

  describe("its run steps, run by bash as GitHub runs them, on the example data", () => {
    let work = "";
    const bin = () => join(work, "bin");
    const env = () => ({
      ...process.env,
      PATH: `${bin()}:${process.env.PATH}`,
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: join(work, "summary.md"),
      GITHUB_WORKSPACE: work,
      GITHUB_BASE_REF: "main",
      NO_COLOR: "1",
    });

    /** Runs one step's script with `bash --noprofile --norc -eo pipefail` (GitHub's default). */
    function runStep(name: string) {
      const step = steps().find((s) => s.name === name) as Mapping;
      const script = join(work, "step.sh");
      writeFileSync(script, step.run as string);
      // A step's env of expressions gets a test value (${{ … }} is GitHub's to fill).
      const stepEnv = Object.fromEntries(
        Object.entries((step.env as Mapping | undefined) ?? {}).map(([k, v]) => [
          k,
          k === "PR" ? "42" : String(v).includes("${{") ? "test-token" : String(v),
        ]),
      );
      return spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: work,
        env: { ...env(), ...stepEnv },
        encoding: "utf8",
      });
    }

    beforeAll(() => {
      work = scratchDir();
      symlinkSync(join(ROOT, "examples"), join(work, "examples"));
      mkdirSync(bin());
      // ragci is the built bundle; npm and gh record what they were asked (no network).
      const stub = (name: string, body: string) => {
        writeFileSync(join(bin(), name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(bin(), name), 0o755);
      };
      stub("ragci", `exec "${process.execPath}" "${CLI}" "$@"`);
      stub("npm", `echo "$@" > "${join(work, "npm.log")}"`);
      stub("gh", `echo "$@" > "${join(work, "gh.log")}"; cp "$5" "${join(work, "gh-body.md")}"`);
    });

    it("installs, evaluates, passes the gate (within noise), and comments", () => {
      for (const name of [
        "Install ragci",
        "Evaluate the base branch",
        "Evaluate the pull request",
      ]) {
        const result = runStep(name);
        expect(result.status, `${name}: ${result.stderr}`).toBe(0);
      }
      expect(readFileSync(join(work, "npm.log"), "utf8")).toBe("install --global ragci\n");
      const gate = runStep("Gate on retrieval quality");
      expect(gate.status, gate.stderr).toBe(0);
      const annotations = gate.stderr.split("\n").filter(Boolean);
      expect(annotations).toHaveLength(2);
      expect(annotations[0]).toMatch(/^::notice title=ragci gate%3A hit5 · pr vs main::pass/);
      expect(annotations[1]).toMatch(/^::notice title=ragci gate%3A rr · pr vs main::pass/);
      expect(readFileSync(join(work, "summary.md"), "utf8")).toMatch(
        /^### ragci gate · fail if a candidate is worse than the baseline by more than 0.01 \(micro\)/,
      );
      const comment = runStep("Comment on the pull request");
      expect(comment.status, comment.stderr).toBe(0);
      expect(readFileSync(join(work, "gh.log"), "utf8")).toBe(
        "pr comment 42 --body-file ragci-comment.md\n",
      );
      const body = readFileSync(join(work, "gh-body.md"), "utf8");
      expect(body).toBe(readFileSync(join(work, "ragci-comment.md"), "utf8"));
      expect(body).toContain("**pass** — no candidate is shown worse than the baseline");
    });

    it("fails the gate step when the pull request's retriever is worse (tfidf), and still comments", () => {
      expect(runStep("Evaluate the base branch").status).toBe(0);
      const tfidf = systemRows(readCovidqa().rows, "tfidf");
      writeFileSync(join(work, "pr.csv"), csvOf(tfidf, COLUMNS));
      const gate = runStep("Gate on retrieval quality");
      expect(gate.status).toBe(1);
      expect(gate.stderr).toMatch(/^::error title=ragci gate%3A hit5 · pr vs main::FAIL/m);
      expect(existsSync(join(work, "ragci-comment.md"))).toBe(true);
      expect(runStep("Comment on the pull request").status).toBe(0);
      expect(readFileSync(join(work, "gh-body.md"), "utf8")).toContain("**FAIL** — hit5, rr");
    });
  });

  it("passes the gate step when both evaluations wrote the same bytes: a difference of 0", () => {
    const work = scratchDir();
    writeFileSync(join(work, "main.csv"), readFileSync(join(ROOT, "examples/ci/main.csv")));
    writeFileSync(join(work, "pr.csv"), readFileSync(join(ROOT, "examples/ci/main.csv")));
    const direct = ragci([
      "compare",
      join(work, "main.csv"),
      join(work, "pr.csv"),
      "--metric",
      "hit5,rr",
      "--baseline",
      "main",
      "--fail-if-worse",
      "--margin",
      "0.01",
      "--json",
    ]);
    expect(direct.stderr).toBe("");
    expect(direct.code).toBe(0);
    const { comparisons, gate } = JSON.parse(direct.stdout);
    expect(gate).toMatchObject({ failed: false, exitCode: 0 });
    for (const metric of ["hit5", "rr"]) {
      const [only] = comparisons.filter((c: { metric: string }) => c.metric === metric);
      expect(only.difference.micro.estimate).toBe(0);
      expect(only.queriesDiffering).toBe(0);
    }
  });

  it("its stand-in results are derived from COVID-QA as examples/ci/README.md says", () => {
    const bm25 = systemRows(readCovidqa().rows, "bm25");
    const main = readFileSync(join(ROOT, "examples/ci/main.csv"), "utf8");
    const pr = readFileSync(join(ROOT, "examples/ci/pr.csv"), "utf8");
    expect(main).toBe(csvOf(bm25, COLUMNS));
    expect(pr).toBe(csvOf(flippedCopy(bm25, 150, 7, 2), COLUMNS));
    const changed = pr.split("\n").filter((line, i) => line !== main.split("\n")[i]);
    expect(changed).toHaveLength(10);
  });
});

describe("the block-YAML parser the example is checked with", () => {
  it("refuses what is outside its subset, naming the line", () => {
    const bad: [string, RegExp][] = [
      ["on: [pull_request]\n", /flow/],
      ["a: 1\na: 2\n", /line 2: duplicate key a/],
      ["a:\n  b: 1\n   c: 2\n", /indentation/],
      ["a:\n\tb: 1\n", /tabs/],
      ["a: &x 1\n", /anchor/],
      ["a: b: c\n", /quote it/],
      ['a: "open\n', /unterminated/],
    ];
    for (const [text, message] of bad) expect(() => parseBlockYaml(text), text).toThrow(message);
  });

  it("reads mappings, sequences of mappings, literal blocks, quotes and comments", () => {
    const text =
      'a: 1 # one\nlist:\n  - k: v\n    run: |\n      echo "# kept"\n\n      two\n  - plain\nq: "x: y"\n';
    expect(parseBlockYaml(text)).toEqual({
      a: "1",
      list: [{ k: "v", run: 'echo "# kept"\n\ntwo\n' }, "plain"],
      q: "x: y",
    });
  });
});
