import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResultsWithDuckDb } from "../../src/ingest/readResults.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();
const ROWS = 6000;
/** A row past the 2,048 the reader looks at first: the column looks 0/1 until there. */
const LATE = 5000;

/** Values of row i: 0/1 by a fixed pattern, with `late` (if any) at row LATE. */
function values(late: number | string | null, pattern = (i: number) => (i * 7) % 3 === 0) {
  return Array.from({ length: ROWS }, (_, i) =>
    i === LATE && late !== null ? late : pattern(i) ? 1 : 0,
  );
}

/** doc,query_id,system,<metrics…>: 40 documents, two systems. */
function write(name: string, metrics: Record<string, (number | string)[]>): string {
  const path = join(dir, name);
  const names = Object.keys(metrics);
  const lines = [`doc,query_id,system,${names.join(",")}`];
  for (let i = 0; i < ROWS; i++)
    lines.push(
      [`d${(i * 13) % 40}`, `q${i}`, i % 2 ? "B" : "A", ...names.map((m) => metrics[m]?.[i])].join(
        ",",
      ),
    );
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** Per system and document, from the values directly (dyadic values: the sums are exact). */
function expected(column: (number | string)[]) {
  const out = new Map<string, { ids: string[]; n: number[]; s: number[]; ss: number[] }>();
  const cells = new Map<string, number[]>();
  for (let i = 0; i < ROWS; i++) {
    const key = `${i % 2 ? "B" : "A"}\u0000d${(i * 13) % 40}`;
    cells.set(key, [...(cells.get(key) ?? []), Number(column[i])]);
  }
  for (const key of [...cells.keys()].sort()) {
    const [system, doc] = key.split("\u0000") as [string, string];
    const xs = cells.get(key) as number[];
    const group = out.get(system) ?? { ids: [], n: [], s: [], ss: [] };
    group.ids.push(doc);
    group.n.push(xs.length);
    group.s.push(xs.reduce((a, b) => a + b, 0));
    group.ss.push(xs.reduce((a, b) => a + b * b, 0));
    out.set(system, group);
  }
  const all = column.map(Number);
  return { groups: out, min: Math.min(...all), max: Math.max(...all) };
}

/**
 * DuckDB's reading, called by name: its passes are what this file tests, and readResults reads
 * a file this small without DuckDB where it can.
 */
async function read(path: string, metrics: string[]) {
  return readResultsWithDuckDb({ file: path, metrics, system: "system" }, path, "csv");
}

describe("a column whose first rows are 0/1 (read with the zeroOne pass, then the full set when it is not 0/1)", () => {
  const cases: [string, number | string | null, boolean][] = [
    ["0/1 throughout", null, true],
    ["a 2 further down", 2, false],
    ["a −1 further down", -1, false],
    ["a 0.5 further down", 0.5, false],
  ];
  for (const [what, late, binary] of cases) {
    it(`${what}: the same sums, extremes and kind as the rows give`, async () => {
      const column = values(late);
      const path = write(`late-${String(late)}.csv`, { hit: column });
      const table = await read(path, ["hit"]);
      const want = expected(column);
      expect(table.summation).toBe("exact");
      expect(table.groups.map((g) => g.system)).toEqual(["A", "B"]);
      for (const group of table.groups) {
        const w = want.groups.get(group.system as string);
        expect(group.stats.ids).toEqual(w?.ids);
        expect(Array.from(group.stats.n)).toEqual(w?.n);
        expect(Array.from(group.stats.s)).toEqual(w?.s);
        expect(Array.from(group.stats.ss)).toEqual(w?.ss);
      }
      // The odd value is in system A's rows (row LATE is even); B's are 0/1 throughout.
      const [a, b] = table.groups.map((g) => g.stats);
      expect([a?.binary, b?.binary]).toEqual([binary, true]);
      if (!binary) expect([a?.min, a?.max]).toEqual([want.min, want.max]);
      expect(table.notices).toEqual(
        binary
          ? []
          : [
              `${path} line ${LATE + 2}: column hit is 0/1 in all but 1 of ${ROWS} rows, so it is analysed as a score, not a 0/1 rate; if that row is a typo, fix it and re-run`,
            ],
      );
    });
  }

  it("a column of only 1s, or only 0s, is 0/1", async () => {
    const ones = values(null, () => true);
    const zeros = values(null, () => false);
    const table = await read(write("constant.csv", { ones, zeros }), ["ones", "zeros"]);
    for (const group of table.groups) {
      const { n, s, ss, binary } = group.stats;
      expect(binary).toBe(true);
      expect(Array.from(s)).toEqual(Array.from(n, (k) => (group.metric === "ones" ? k : 0)));
      expect(Array.from(ss)).toEqual(Array.from(s));
    }
  });

  it("an empty value further down is still named on its line", async () => {
    const path = write("late-empty.csv", { hit: values("") });
    await expect(read(path, ["hit"])).rejects.toThrow(
      `${path} line ${LATE + 2}: column hit is empty or not a number; every result needs a finite value`,
    );
  });

  it("several metrics: each gets the scan it needs, the others are unchanged", async () => {
    const hit = values(null);
    const late = values(3);
    const grade = Array.from({ length: ROWS }, (_, i) => i % 4);
    const table = await read(write("several.csv", { hit, late, grade }), ["hit", "late", "grade"]);
    // Binary in system A, then B: late's 3 is in A's rows.
    for (const [metric, column, binary] of [
      ["hit", hit, [true, true]],
      ["late", late, [false, true]],
      ["grade", grade, [false, false]],
    ] as const) {
      const want = expected([...column]);
      const groups = table.groups.filter((g) => g.metric === metric);
      expect(groups.map((g) => g.stats.binary)).toEqual(binary);
      for (const group of groups) {
        const w = want.groups.get(group.system as string);
        expect(Array.from(group.stats.s), metric).toEqual(w?.s);
        expect(Array.from(group.stats.ss), metric).toEqual(w?.ss);
      }
    }
  });
});
