/**
 * The library examples type-check under the project's own tsconfig.json (strict,
 * noUncheckedIndexedAccess, exactOptionalPropertyTypes): the `ts` code blocks of README.md's
 * "## As a library" section, and those of docs/library.md (the longer examples), are each
 * compiled in memory as one ES module beside package.json, with `"ragci"` mapped to
 * src/index.ts, so a renamed export or a changed option fails here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The ```ts blocks of `text`, joined into one module. */
function tsBlocks(text: string, where: string): string {
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  expect(blocks.length, `code blocks in ${where}`).toBeGreaterThan(0);
  return blocks.join("\n");
}

/** The README's short example: the ```ts blocks between "## As a library" and the next heading. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## As a library\n");
  expect(start, "README has a '## As a library' section").toBeGreaterThanOrEqual(0);
  const rest = readme.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,3} /);
  return tsBlocks(end < 0 ? rest : rest.slice(0, end + 1), "README's library section");
}

/** The library page's examples: every ```ts block of docs/library.md. */
function libraryPageExample(): string {
  return tsBlocks(readFileSync(join(ROOT, "docs/library.md"), "utf8"), "docs/library.md");
}

function diagnostics(source: string): string[] {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json could not be read");
  const file = join(ROOT, "readme-library-example.ts");
  const code = source.replaceAll(/from "ragci"/g, 'from "./src/index.js"');
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file
      ? ts.createSourceFile(name, code, version, true)
      : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram({
    rootNames: [file],
    options: { ...config.options, noEmit: true },
    host,
  });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the library examples", () => {
  it("README.md's compiles under the project's strict settings with ragci = src/index.ts", () => {
    expect(diagnostics(readmeExample())).toEqual([]);
  });

  it("docs/library.md's compile under the same settings", () => {
    expect(diagnostics(libraryPageExample())).toEqual([]);
  });

  it("README.md's runs: as a module of a project that installed ragci (the built package), it gives an interval", () => {
    // Inside the package's folder `import "ragci"` resolves to the package itself through its
    // exports, as it does in a project that installed it; the build is dist/ (npm test builds it).
    const js = ts.transpileModule(readmeExample(), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const dir = join(ROOT, ".cache");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "readme-example.mjs");
    writeFileSync(file, `${js}\nconsole.log(JSON.stringify(a.micro?.intervals.cr2));\n`);
    const cr2 = JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8" }));
    expect(cr2.available).toBe(true);
    expect(cr2.lower).toBeLessThan(30 / 55);
    expect(cr2.upper).toBeGreaterThan(30 / 55);
  });

  it("the check is real: a misspelled export is reported in each", () => {
    for (const example of [readmeExample(), libraryPageExample()]) {
      const broken = example.replace("import { analyze", "import { analyse");
      expect(broken).not.toBe(example);
      expect(diagnostics(broken).join("\n")).toMatch(/analyse/);
    }
  });
});
