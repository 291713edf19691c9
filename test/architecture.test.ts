import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function imports(path: string, valuesOnly = false): string[] {
  const source = readFileSync(path, "utf8");
  return [...source.matchAll(/^\s*(import|export)\s(type\s)?[^;]*?from\s+["']([^"']+)["']/gms)]
    .filter((m) => !(valuesOnly && m[2]))
    .map((m) => m[3] as string);
}

function layerOf(path: string): string {
  return relative(join(root, "src"), path).split(/[\\/]/)[0] as string;
}

/** The import cycles among src's modules (static imports and re-exports, types included). */
function importCycles(): string[][] {
  const all = files(join(root, "src"));
  const edges = new Map(
    all.map((file) => [
      file,
      imports(file)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ".ts"))
        .filter((target) => target !== file && all.includes(target)),
    ]),
  );
  // Tarjan's strongly connected components: a component of two or more files is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of all) if (!index.has(file)) visit(file);
  return cycles;
}

describe("architecture", () => {
  it("no module imports itself through others (types included): shared types live in files of their own", () => {
    expect(importCycles()).toEqual([]);
  });

  it("src/core imports only src/core and @stdlib/* (pure mathematics)", () => {
    const offences: string[] = [];
    for (const file of files(join(root, "src/core"))) {
      for (const spec of imports(file)) {
        if (spec.startsWith("@stdlib/")) continue;
        if (spec.startsWith(".")) {
          const target = resolve(dirname(file), spec);
          if (relative(join(root, "src/core"), target).startsWith(".."))
            offences.push(`${relative(root, file)} → ${spec}`);
          continue;
        }
        offences.push(`${relative(root, file)} → ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("ingest and report never import the CLI, and report never imports ingest's code (types only) or DuckDB", () => {
    const offences: string[] = [];
    for (const layer of ["ingest", "report"]) {
      for (const file of files(join(root, "src", layer))) {
        // report may name ingest's types (an input's description), never load its code.
        for (const spec of imports(file, layer === "report")) {
          const target = spec.startsWith(".") ? layerOf(resolve(dirname(file), spec)) : spec;
          const forbidden = layer === "report" ? ["cli", "ingest", "@duckdb/node-api"] : ["cli"];
          if (forbidden.includes(target)) offences.push(`${relative(root, file)} → ${spec}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it("src/cli reads through ingest's one door: it imports ingest only from src/ingest/index.ts", () => {
    const offences: string[] = [];
    for (const file of files(join(root, "src/cli"))) {
      for (const spec of imports(file)) {
        if (!spec.startsWith(".")) continue;
        const target = resolve(dirname(file), spec);
        if (layerOf(target) === "ingest" && target !== join(root, "src/ingest/index.js"))
          offences.push(`${relative(root, file)} → ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("the published entries are src/index.ts and src/core/index.ts, and neither re-exports the CLI's door to ingest", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    // and the JSON Schemas of the commands' --json (files, not code: docs/json.md)
    expect(Object.keys(pkg.exports)).toEqual([".", "./core", "./schemas/*"]);
    expect(pkg.exports["."].import).toBe("./dist/index.js");
    expect(pkg.exports["./core"].import).toBe("./dist/core/index.js");
    const entries = [join(root, "src/index.ts"), join(root, "src/core/index.ts")];
    const offences = entries.flatMap((file) =>
      imports(file)
        .filter((spec) => /(^|\/)(ingest|report)\/index\.js$|internal\.js$/.test(spec))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offences).toEqual([]);
  });

  it("src/cli holds no loaders: reading is ingest's (readSource)", () => {
    const loaders = files(join(root, "src/cli"))
      .filter((f) => /[\\/]load[A-Z][^\\/]*\.ts$/.test(f))
      .map((f) => relative(root, f));
    expect(loaders).toEqual([]);
  });

  /** Flags of the tools whose outputs ragci reads, which the readers' messages may name. */
  const TOOLS_OWN_FLAGS =
    /promptfoo's --repeat|\(--repeat \$\{|evalite --outputPath|--no-log-samples|--epochs-reducer/g;

  it("src/core and src/ingest name no CLI flag in their strings (the CLI maps option names to flags)", () => {
    const offences: string[] = [];
    for (const layer of ["core", "ingest"]) {
      for (const file of files(join(root, "src", layer))) {
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return;
            const withoutToolFlags = line.replace(TOOLS_OWN_FLAGS, "");
            if (/--[a-z][a-z-]+/.test(withoutToolFlags))
              offences.push(`${relative(root, file)}:${i + 1}`);
          });
      }
    }
    expect(offences).toEqual([]);
  });

  it("only src/cli touches process", () => {
    const offences = files(join(root, "src"))
      .filter((f) => layerOf(f) !== "cli")
      .filter((f) =>
        /\bprocess\.(argv|exit|stdout|stderr|stdin|env|exitCode)/.test(readFileSync(f, "utf8")),
      )
      .map((f) => relative(root, f));
    expect(offences).toEqual([]);
  });
});
