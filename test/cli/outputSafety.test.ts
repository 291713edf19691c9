/**
 * Issue 11, data safety: no output of any command may overwrite an input or another output,
 * whatever the spelling (same name, ./sub/../name, absolute, a symbolic link, a hard link);
 * the refusal comes before anything is read. `-o` onto a symbolic link writes the link's
 * target atomically and keeps the link. Every CSV ragci writes quotes per RFC 4180, so ids
 * with commas, quotes, line breaks, surrounding spaces or any Unicode read back unchanged.
 */

import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { sha256File } from "../support/sha256File.js";
import { CLI, EXAMPLE, ragci, scratchDir } from "./runCli.js";

const root = scratchDir();
let counter = 0;

/** A fresh directory holding the example as `input.csv` and an empty `sub/`. */
function workspace(): string {
  const dir = join(root, `w${counter++}`);
  mkdirSync(join(dir, "sub"), { recursive: true });
  copyFileSync(EXAMPLE, join(dir, "input.csv"));
  return dir;
}

const SYSTEM = ["--metric", "hit5", "--system", "system=bm25"];

/** Each command and flag that writes a file, with the rest of its arguments. */
const WRITERS: readonly { name: string; args: (out: string) => string[] }[] = [
  { name: "analyze -o", args: (o) => ["analyze", "input.csv", ...SYSTEM, "-o", o] },
  {
    name: "analyze --write-aggregates",
    args: (o) => ["analyze", "input.csv", ...SYSTEM, "--replicates", "0", "--write-aggregates", o],
  },
  {
    name: "compare -o",
    args: (o) => ["compare", "input.csv", "--system", "system", "--metric", "hit5", "-o", o],
  },
  {
    name: "plan -o",
    args: (o) => ["plan", "input.csv", ...SYSTEM, "--half-width", "0.05", "-o", o],
  },
  {
    name: "strata -o",
    args: (o) => ["strata", "input.csv", ...SYSTEM, "--documents", "20", "-o", o],
  },
  {
    name: "strata --write-sample",
    args: (o) => ["strata", "input.csv", ...SYSTEM, "--documents", "20", "--write-sample", o],
  },
  {
    name: "strata --write-design",
    args: (o) => ["strata", "input.csv", ...SYSTEM, "--documents", "20", "--write-design", o],
  },
];

/** Ways of naming input.csv from its directory; `make` creates links it needs. */
const SPELLINGS: readonly { name: string; path: (dir: string) => string }[] = [
  { name: "the same name", path: () => "input.csv" },
  { name: "./sub/../input.csv", path: () => "./sub/../input.csv" },
  { name: "an absolute path", path: (dir) => join(dir, "input.csv") },
  {
    name: "a symbolic link to it",
    path: (dir) => {
      symlinkSync("input.csv", join(dir, "link.csv"));
      return "link.csv";
    },
  },
  {
    name: "a symbolic link to its directory",
    path: (dir) => {
      symlinkSync(".", join(dir, "here"));
      return "here/input.csv";
    },
  },
  {
    name: "a hard link to it",
    path: (dir) => {
      linkSync(join(dir, "input.csv"), join(dir, "hard.csv"));
      return "hard.csv";
    },
  },
];

const cases = WRITERS.flatMap((w) => SPELLINGS.map((s) => ({ writer: w, spelling: s })));

describe("an output that is the input is refused, whatever its spelling", () => {
  it.each(cases.map((c) => ({ ...c, label: `${c.writer.name} onto ${c.spelling.name}` })))(
    "$label",
    ({ writer, spelling }) => {
      const dir = workspace();
      const out = spelling.path(dir);
      const before = sha256File(join(dir, "input.csv"));
      const entries = readdirSync(dir).sort();
      const result = ragci(writer.args(out), { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /is the same file as the input input\.csv; ragci never overwrites its input/,
      );
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(sha256File(join(dir, "input.csv"))).toBe(before);
      expect(readdirSync(dir).sort()).toEqual(entries);
    },
  );
});

describe("two outputs of one run naming one file are refused", () => {
  it.each([
    [
      "analyze",
      ["analyze", "input.csv", ...SYSTEM, "-o", "r.csv", "--write-aggregates", "sub/../r.csv"],
    ],
    [
      "strata",
      [
        "strata",
        "input.csv",
        ...SYSTEM,
        "--documents",
        "20",
        "-o",
        "s.csv",
        "--write-sample",
        "./s.csv",
      ],
    ],
  ])("%s", (_, args) => {
    const dir = workspace();
    const result = ragci(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is also the file of -o/);
    expect(readdirSync(dir).sort()).toEqual(["input.csv", "sub"]);
  });

  it("an existing file reached through a hard link counts as the same output", () => {
    const dir = workspace();
    writeFileSync(join(dir, "r.csv"), "old\n");
    linkSync(join(dir, "r.csv"), join(dir, "r2.csv"));
    const result = ragci(
      ["analyze", "input.csv", ...SYSTEM, "-o", "r.csv", "--write-aggregates", "r2.csv"],
      { cwd: dir },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--write-aggregates r2\.csv: is also the file of -o r\.csv/);
    expect(readFileSync(join(dir, "r.csv"), "utf8")).toBe("old\n");
  });
});

describe("-o onto a symbolic link writes its target and keeps the link", () => {
  it.each([
    ["analyze", ["analyze", "input.csv", ...SYSTEM, "--replicates", "0"]],
    [
      "compare",
      ["compare", "input.csv", "--system", "system", "--metric", "hit5", "--replicates", "0"],
    ],
    ["plan", ["plan", "input.csv", ...SYSTEM, "--half-width", "0.05"]],
    ["strata", ["strata", "input.csv", ...SYSTEM, "--documents", "20"]],
  ])("%s", (_, args) => {
    const dir = workspace();
    writeFileSync(join(dir, "sub", "report.txt"), "old report\n");
    symlinkSync("sub/report.txt", join(dir, "latest.txt"));
    const result = ragci([...args, "-o", "latest.txt"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(lstatSync(join(dir, "latest.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "latest.txt"))).toBe("sub/report.txt");
    const text = readFileSync(join(dir, "sub", "report.txt"), "utf8");
    expect(text).toMatch(/^ragci /);
    // Atomic: the temporary file beside the target was renamed, none is left.
    expect(readdirSync(join(dir, "sub"))).toEqual(["report.txt"]);
    expect(readdirSync(dir).sort()).toEqual(["input.csv", "latest.txt", "sub"]);
  });

  it("a dangling link is written through to the file it names", () => {
    const dir = workspace();
    symlinkSync("sub/new.txt", join(dir, "latest.txt"));
    const result = ragci(["plan", "--sd", "0.2", "--half-width", "0.05", "-o", "latest.txt"], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(lstatSync(join(dir, "latest.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "sub", "new.txt"), "utf8")).toMatch(/^ragci plan/);
  });
});

describe("an output that is a device or a pipe is written in place, never replaced", () => {
  /** A bash line in which RAGCI runs ragci with `args`: a reader beside it, or a pipe after it. */
  const inBash = (dir: string, line: string, args: readonly string[]) =>
    spawnSync(
      "bash",
      ["-c", line.replace("RAGCI", `"${process.execPath}" "${CLI}" "$@"`), "ragci", ...args],
      { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 },
    );

  it("-o /dev/stdout into a pipe: the report reaches the reader, as with no -o", () => {
    const dir = workspace();
    const shell = inBash(dir, "set -o pipefail; RAGCI | cat > copy.txt", [
      "plan",
      "--sd",
      "0.2",
      "--half-width",
      "0.05",
      "-o",
      "/dev/stdout",
    ]);
    expect(shell.stderr).toBe("");
    expect(shell.status).toBe(0);
    expect(readFileSync(join(dir, "copy.txt"), "utf8")).toMatch(/^ragci plan/);
  });

  it.each([
    ["-o", "pipe.txt", ["-o", "pipe.txt"], /^ragci analyze/],
    ["--write-aggregates", "pipe.csv", ["--write-aggregates", "pipe.csv"], /^system,metric,doc/],
  ])(
    "%s onto a named pipe: a reader gets the output, and the pipe is still a pipe",
    (_, pipe, flags, start) => {
      const dir = workspace();
      expect(spawnSync("mkfifo", [pipe], { cwd: dir }).status).toBe(0);
      // A reader on the pipe, as a user's `cat pipe > copy.txt &`, while ragci writes it.
      const shell = inBash(
        dir,
        `timeout 30 cat ${pipe} > copy.txt & RAGCI; code=$?; wait; exit $code`,
        ["analyze", "input.csv", ...SYSTEM, "--replicates", "0", ...flags],
      );
      expect(shell.stderr).toBe("");
      expect(shell.status).toBe(0);
      expect(lstatSync(join(dir, pipe)).isFIFO()).toBe(true);
      expect(readFileSync(join(dir, "copy.txt"), "utf8")).toMatch(start);
      expect(readdirSync(dir).sort()).toEqual(["copy.txt", "input.csv", pipe, "sub"].sort());
    },
  );

  it("a path under a regular file is refused before the work, in one line", () => {
    const dir = workspace();
    const result = ragci(
      [
        "analyze",
        "input.csv",
        ...SYSTEM,
        "--write-aggregates",
        "a.csv",
        "-o",
        "input.csv/report.txt",
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "ragci: -o input.csv/report.txt: " +
        `${join(dir, "input.csv")} is a file, not a directory; choose another path\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(["input.csv", "sub"]);
  });
});

/** Ids that break a naive CSV writer, and Unicode that must survive as bytes. */
const AWKWARD_IDS = [
  "Fresno,_California,small",
  'say "hi"',
  "line\nbreak",
  "carriage\r\nreturn",
  " leading space",
  "trailing space ",
  "São Paulo – 東京 🚀",
  "plain",
];

function awkwardResults(dir: string): string {
  const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const rows = ["doc_id,query_id,hit"];
  AWKWARD_IDS.forEach((id, d) => {
    for (let q = 0; q < 2 + d; q++) rows.push(`${quote(id)},q${d}-${q},${(q + d) % 2}`);
  });
  const path = join(dir, "awkward.csv");
  writeFileSync(path, `${rows.join("\n")}\n`);
  return path;
}

async function readCsv(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      sql.replace(
        "FILE",
        `read_csv('${path.replaceAll("'", "''")}', header = true, all_varchar = true)`,
      ),
    );
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("every CSV ragci writes is RFC 4180: awkward ids read back unchanged", () => {
  it("the awkward ids are read as eight documents (the input itself is valid)", () => {
    const dir = workspace();
    awkwardResults(dir);
    const out = JSON.parse(
      ragci(["analyze", "awkward.csv", "--metric", "hit", "--replicates", "0", "--json"], {
        cwd: dir,
      }).stdout,
    );
    expect(out.analyses[0].documents).toBe(AWKWARD_IDS.length);
  });

  it("--write-aggregates CSV: DuckDB reads the same ids, and --aggregated re-runs to the same digest", async () => {
    const dir = workspace();
    awkwardResults(dir);
    const base = ["--metric", "hit", "--replicates", "0", "--json"];
    const first = JSON.parse(
      ragci(["analyze", "awkward.csv", ...base, "--write-aggregates", "agg.csv"], { cwd: dir })
        .stdout,
    );
    const rows = await readCsv(join(dir, "agg.csv"), "SELECT doc FROM FILE ORDER BY doc");
    expect(rows.map((r) => r.doc).sort()).toEqual([...AWKWARD_IDS].sort());
    const again = JSON.parse(
      ragci(["analyze", "agg.csv", "--aggregated", ...base], { cwd: dir }).stdout,
    );
    expect(again.analyses[0].aggregatesSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(again.analyses[0].aggregatesSha256).toBe(first.analyses[0].aggregatesSha256);
    expect(again.analyses[0].documents).toBe(AWKWARD_IDS.length);
  });

  it("--write-aggregates Parquet keeps the ids too", () => {
    const dir = workspace();
    awkwardResults(dir);
    const base = ["--metric", "hit", "--replicates", "0", "--json"];
    const first = JSON.parse(
      ragci(["analyze", "awkward.csv", ...base, "--write-aggregates", "agg.parquet"], { cwd: dir })
        .stdout,
    );
    const again = JSON.parse(
      ragci(["analyze", "agg.parquet", "--aggregated", ...base], { cwd: dir }).stdout,
    );
    expect(again.analyses[0].aggregatesSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(again.analyses[0].aggregatesSha256).toBe(first.analyses[0].aggregatesSha256);
  });

  it("strata --write-sample: every sampled id is a census id, read back by DuckDB", async () => {
    const dir = workspace();
    const rows = ["doc_id,query_id,hit"];
    // 40 documents, sizes 1..40, each id awkward in its own way.
    const ids = Array.from(
      { length: 40 },
      (_, d) => `${AWKWARD_IDS[d % AWKWARD_IDS.length]} #${d}`,
    );
    ids.forEach((id, d) => {
      for (let q = 0; q <= d; q++)
        rows.push(`"${id.replaceAll('"', '""')}",q${d}-${q},${(q * 7 + d) % 3 === 0 ? 1 : 0}`);
    });
    writeFileSync(join(dir, "census.csv"), `${rows.join("\n")}\n`);
    const result = ragci(
      [
        "strata",
        "census.csv",
        "--metric",
        "hit",
        "--documents",
        "12",
        "--write-sample",
        "sample.csv",
      ],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    const sample = await readCsv(join(dir, "sample.csv"), "SELECT doc, stratum FROM FILE");
    expect(sample).toHaveLength(12);
    for (const row of sample) {
      expect(ids).toContain(row.doc);
      expect(["large", "small"]).toContain(row.stratum);
    }
    expect(new Set(sample.map((r) => r.doc)).size).toBe(12);
    expect(sample.some((r) => String(r.doc).includes("\n"))).toBe(true);
  });
});

describe("nothing is written when a run fails after its outputs were checked", () => {
  it("a bad metric value leaves neither -o nor --write-aggregates behind", () => {
    const dir = workspace();
    writeFileSync(join(dir, "bad.csv"), "doc_id,hit\na,1\nb,x\n");
    const result = ragci(
      ["analyze", "bad.csv", "--metric", "hit", "-o", "r.txt", "--write-aggregates", "a.csv"],
      { cwd: dir },
    );
    expect(result.code).toBe(2);
    expect(existsSync(join(dir, "r.txt"))).toBe(false);
    expect(existsSync(join(dir, "a.csv"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["bad.csv", "input.csv", "sub"]);
  });
});
