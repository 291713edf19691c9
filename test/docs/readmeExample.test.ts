/**
 * The README's library example ("### As a library") type-checks under the project's own
 * tsconfig.json (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes): its `ts` code
 * blocks are compiled in memory as one ES module beside package.json, with `"ragci"` mapped to
 * src/index.ts, so a renamed export or a changed option fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The ```ts blocks between "### As a library" and the next heading. */
function libraryExample(): string {
  const start = README.indexOf("### As a library");
  expect(start, "README has a '### As a library' section").toBeGreaterThanOrEqual(0);
  const rest = README.slice(start + 1);
  const section = rest.slice(0, rest.search(/\n#{2,3} /));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  expect(blocks.length, "code blocks in the library section").toBeGreaterThan(0);
  return blocks.join("\n");
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

describe("README library example", () => {
  it("compiles under the project's strict settings with ragci = src/index.ts", () => {
    expect(diagnostics(libraryExample())).toEqual([]);
  });

  it("the check is real: a misspelled export is reported", () => {
    const broken = libraryExample().replace("import { analyze,", "import { analyse,");
    expect(diagnostics(broken).join("\n")).toMatch(/analyse/);
  });
});
