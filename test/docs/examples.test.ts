/**
 * Every `@example` in src runs: its expression is evaluated with the module's exports and
 * "ragci"'s (src/index.ts, which holds "ragci/core") in scope, and the value written after
 * `// =>` is compared with the result. So a doc comment that drifts from the code fails here.
 * Every function of "ragci" (and so of "ragci/core") has one.
 * An example may read the repository's files (examples/), from the repository's root. It may
 * start with statements, each line of them ending in `;`, before its expression; node's join,
 * readFile and writeFile are in scope, and tmpdir() (as node:os's) is a fresh directory of the
 * example's own, removed after it, so an example can write a file and read it back.
 *
 * Comparison: a number written with d decimals matches within 10^-d (so "0.7071" and "1.5275…"
 * are the digits shown, rounded or cut); an integer must be exact; strings, booleans and null
 * exactly; an array element by element, of the same length; an object on the keys written (keys
 * not written are not shown, not claimed absent).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

interface Example {
  readonly file: string;
  readonly line: number;
  /** Statements run first (lines ending in `;`), or "". */
  readonly setup: string;
  /** The expression whose value is shown. */
  readonly code: string;
  readonly expected: string | null;
}

/** An example's code split after its last line ending in `;`: the statements, then the expression. */
function statementsAndExpression(code: string): { setup: string; code: string } {
  const lines = code.split("\n");
  const last = lines.map((l) => l.trimEnd().endsWith(";")).lastIndexOf(true);
  return {
    setup: lines
      .slice(0, last + 1)
      .join("\n")
      .trim(),
    code: lines
      .slice(last + 1)
      .join("\n")
      .trim(),
  };
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The `@example` tags of a file's doc comments, each with its code and its `// =>` value. */
function examples(file: string): Example[] {
  const text = readFileSync(file, "utf8");
  const found: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment[0]
      .split("\n")
      .map((l) => l.replace(/^\s*\/?\*+\/?\s?/, "").replace(/\s*\*\/$/, ""));
    const startLine = text.slice(0, comment.index).split("\n").length;
    lines.forEach((l, i) => {
      if (!l.startsWith("@example")) return;
      const body = [l.slice("@example".length)];
      for (const next of lines.slice(i + 1)) {
        if (next.startsWith("@") || next.trim() === "") break;
        body.push(next);
      }
      const joined = body.join("\n");
      const at = joined.indexOf("// =>");
      found.push({
        file: relative(ROOT, file),
        line: startLine + i,
        // A comment in the code (not the `// =>` value) is the reader's, not evaluated.
        ...statementsAndExpression(
          (at < 0 ? joined : joined.slice(0, at)).replace(/\/\/.*$/gm, "").trim(),
        ),
        expected: at < 0 ? null : joined.slice(at + "// =>".length).trim(),
      });
    });
  }
  return found;
}

/** Parses the written value: a JS literal whose numbers keep the decimals they were written with. */
function writtenValue(text: string): unknown {
  const literal = text.replace(/…/g, "");
  // Numbers become tagged strings so that their written precision survives evaluation (not the
  // digits of a key such as cr2).
  const tagged = literal.replace(
    /("(?:[^"\\]|\\.)*")|(?<![\w.])(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\w"])/gi,
    (m, str, num) => (str ? m : num ? `"\0${num}"` : m),
  );
  return new Function(`return (${tagged});`)();
}

function matches(actual: unknown, written: unknown, path: string): string[] {
  if (typeof written === "string" && written.startsWith("\0")) {
    const text = written.slice(1);
    const value = Number(text);
    const decimals = /\.(\d+)/.exec(text.split(/e/i)[0] as string)?.[1]?.length ?? 0;
    if (typeof actual !== "number") return [`${path}: ${String(actual)} is not a number`];
    const ok =
      decimals === 0 && !/e/i.test(text)
        ? actual === value
        : Math.abs(actual - value) < 10 ** -decimals;
    return ok ? [] : [`${path}: ${actual} is not ${text}`];
  }
  if (Array.isArray(written)) {
    const list = ArrayBuffer.isView(actual) ? Array.from(actual as unknown as number[]) : actual;
    if (!Array.isArray(list) || list.length !== written.length)
      return [`${path}: ${JSON.stringify(actual)} is not ${written.length} long`];
    return written.flatMap((w, i) => matches(list[i], w, `${path}[${i}]`));
  }
  if (written !== null && typeof written === "object") {
    if (actual === null || typeof actual !== "object") return [`${path}: not an object`];
    return Object.entries(written).flatMap(([k, w]) =>
      matches((actual as Record<string, unknown>)[k], w, `${path}.${k}`),
    );
  }
  return Object.is(actual, written) ? [] : [`${path}: ${String(actual)} is not ${String(written)}`];
}

const all = files(SRC).flatMap(examples);

/** The functions an example calls: the name its expression, or a statement, starts with (after an await). */
const documented = new Set(
  all
    .flatMap((e) => [e.code, ...e.setup.split(";\n")])
    .map((c) => /^\s*(?:await\s+)?(\w+)\(/.exec(c)?.[1])
    .filter((n) => n !== undefined),
);

function functionsOf(module: Record<string, unknown>): string[] {
  return Object.entries(module)
    .filter(([name, value]) => typeof value === "function" && !/^[A-Z]/.test(name))
    .map(([name]) => name);
}

describe("@example in src", () => {
  it("are on every function of ragci/core, each with a `// =>` value", async () => {
    const core = await import("../../src/core/index.js");
    expect(functionsOf(core).filter((n) => !documented.has(n))).toEqual([]);
    expect(all.filter((e) => e.expected === null).map((e) => `${e.file}:${e.line}`)).toEqual([]);
  });

  it("are on every function of ragci", async () => {
    const ragci = await import("../../src/index.js");
    expect(functionsOf(ragci).filter((n) => !documented.has(n))).toEqual([]);
  });

  it.each(all.map((e) => [`${e.file}:${e.line}`, e] as const))("%s", async (_, example) => {
    const own = await import(pathToFileURL(join(ROOT, example.file)).href);
    const ragci = await import("../../src/index.js");
    const dir = mkdtempSync(join(tmpdir(), "ragci-example-"));
    const node = { join, readFile, writeFile, tmpdir: () => dir };
    const scope = { ...node, ...ragci, ...own };
    const evaluate = new Function(
      ...Object.keys(scope),
      `return (async () => { ${example.setup}\nreturn (${example.code}); })();`,
    ) as (...values: unknown[]) => Promise<unknown>;
    try {
      const actual = await evaluate(...Object.values(scope));
      expect(matches(actual, writtenValue(example.expected ?? ""), "value")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the comparison of written values", () => {
  it("holds a number to the decimals written, an integer exactly, and a missing key fails", () => {
    expect(matches(0.70712, writtenValue("0.7071"), "v")).toEqual([]);
    expect(matches(0.7073, writtenValue("0.7071"), "v")).not.toEqual([]);
    expect(matches(1.52753, writtenValue("1.5275…"), "v")).toEqual([]);
    expect(matches(77, writtenValue("76"), "v")).not.toEqual([]);
    expect(matches({ a: [1, 2], b: "x" }, writtenValue('{ a: [1, 2], b: "x" }'), "v")).toEqual([]);
    expect(matches({ a: [1] }, writtenValue("{ a: [1, 2] }"), "v")).not.toEqual([]);
    expect(matches({}, writtenValue("{ b: null }"), "v")).not.toEqual([]);
    expect(matches({ cr2: { df: 2.66607 } }, writtenValue("{ cr2: { df: 2.6661 } }"), "v")).toEqual(
      [],
    );
  });
});
