/**
 * Issue 29: each flag is declared once, with its parser and meaning. A flag several commands
 * share has one description in all of them, unless its meaning genuinely differs between
 * commands — then it is listed below with the reason, and its one declaration
 * (src/cli/options.ts) takes the difference as a parameter. A copy that drifts fails here, and
 * so does a shared flag declared anywhere but in one function of src/cli/options.ts.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, type Option } from "commander";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commandRegistry.js";
import type { CommandIo } from "../../src/cli/io.js";
import { parseLevel } from "../../src/cli/options.js";

/** Flags whose help differs between commands, because their meaning does. */
const GENUINE_DIFFERENCES: Readonly<Record<string, string>> = {
  "--json": "each command names its own schema",
  "--format": "tables or tools' outputs (analyze, compare, aggregate), or tables only",
  "--output": "a report (analyze, compare, plan, strata, simulate) or a table (aggregate, merge)",
  "--replicates": "simulate's bootstrap runs per repetition, 999 by default (9999 elsewhere)",
  "--seed": "what the seed starts: the bootstrap, strata's sample draw, every stream of a study",
  "--doc": "sql's statement needs the column named (no detection)",
  "--metric": "columns; one column (plan, strata, simulate); merge's metric names",
  "--system": "each system apart, two compared, one or a pair, one, or a table's own column",
  "--threads": "what else runs beside DuckDB's threads: a --census study, or simulate's workers",
  "--aggregated": "compare's table holds each system and each pair's differences",
  "--query":
    "checked for repeats (analyze), pairs systems (compare, plan, simulate), or sql's check",
  // The same file in all three, every document of the population; what is done with it differs.
  "--census":
    "analyze and compare run a coverage study on it at the sample's K; plan takes M = its K (without FILE: the file given is the census)",
  "--chunk-bootstrap": "analyze and compare run it when large; simulate scores it",
  "--cutoff": "plan's size-stratified plan, strata's split, simulate's stratified sampling",
  "--allocation": "strata's --write-sample, simulate's stratified sampling",
  "--design": "a design of the sample (analyze, compare) or simulate's two-stage population",
  "--intersect": "compare keeps common queries; sql's --pair does, instead of failing",
  "--table": "with --from; sql prints a statement on a table it never reads",
  "--sql": "with --from; sql's own --sql is the alternative to --table",
};

/** Flags whose parser refuses in one command what it reads in another, because of their meaning. */
const PARSER_DIFFERENCES: Readonly<Record<string, string>> = {
  "--format": "plan, strata, simulate and merge read tables only, not a tool's output",
};

/** Texts every parser is given: numbers of each kind, a percent, lists, words, tools' names. */
const SAMPLES = [
  "0",
  "1",
  "2",
  "-1",
  "0.5",
  "95%",
  "1e9",
  "abc",
  "",
  "a,b",
  "5,10",
  "neyman",
  "promptfoo",
  "csv",
];

/** What a parser makes of `text`: its value, or its refusal's message. */
function outcome(option: Option, text: string): string {
  try {
    // commander calls parseArg(value, previous): previous is the default (or undefined).
    return JSON.stringify(option.parseArg?.(text, undefined) ?? text);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** Where each option was declared: "file#function" of the code that called commander. */
const declarations = new WeakMap<Option, string>();

/** The file where options must be declared when several commands share them. */
const OPTIONS_FILE = "src/cli/options.ts";

/**
 * The caller of commander's option()/requiredOption()/addOption() in a stack taken inside
 * addOption: the first frame outside commander, after addOption's own (line 1, the wrapper).
 */
function declaration(stack: string): string {
  const frames = stack.split("\n").slice(2);
  const caller = frames.find((frame) => !/node_modules[\\/]commander[\\/]/.test(frame)) ?? "";
  const match = /at (?:(.+?) \()?(.+?):\d+:\d+\)?$/.exec(caller.trim());
  if (!match) return `unknown: ${caller}`;
  const [, name = "(anonymous)", location = ""] = match;
  const path = location.startsWith("file:") ? fileURLToPath(location) : location;
  return `${relative(process.cwd(), path).replaceAll("\\", "/")}#${name.replace(/^Command\./, "")}`;
}

/**
 * Every command registered as `ragci` registers them (then `extra`'s, a test's own); actions
 * never run here. commander's addOption, which option() and requiredOption() end in, records
 * where each option is declared.
 */
async function program(extra?: (root: Command) => void): Promise<Command> {
  const root = new Command();
  const io = {} as CommandIo;
  const addOption = Command.prototype.addOption;
  Command.prototype.addOption = function (this: Command, option: Option) {
    declarations.set(option, declaration(new Error().stack ?? ""));
    return addOption.call(this, option);
  };
  try {
    for (const load of Object.values(COMMANDS)) (await load())(root, io);
    extra?.(root);
  } finally {
    Command.prototype.addOption = addOption;
  }
  return root;
}

/**
 * The flags two or more commands have that are not declared by one function of
 * src/cli/options.ts, each with where it is declared and by which commands.
 */
function declaredApart(root: Command): string[] {
  const byFlag = new Map<string, Map<string, string[]>>();
  for (const command of root.commands) {
    for (const option of command.options as Option[]) {
      if (!option.long) continue;
      const where = declarations.get(option) ?? "not recorded";
      const sites = byFlag.get(option.long) ?? new Map<string, string[]>();
      sites.set(where, [...(sites.get(where) ?? []), command.name()]);
      byFlag.set(option.long, sites);
    }
  }
  return [...byFlag]
    .filter(([, sites]) => new Set([...sites.values()].flat()).size > 1)
    .filter(([, sites]) => sites.size > 1 || !sites.keys().next().value?.startsWith(OPTIONS_FILE))
    .map(([flag, sites]) => `${flag}: ${JSON.stringify(Object.fromEntries(sites))}`);
}

/** long flag → description → the commands declaring it so. */
function descriptions(root: Command): Map<string, Map<string, string[]>> {
  const found = new Map<string, Map<string, string[]>>();
  for (const command of root.commands) {
    for (const option of command.options as Option[]) {
      if (!option.long) continue;
      const byText = found.get(option.long) ?? new Map<string, string[]>();
      byText.set(option.description, [...(byText.get(option.description) ?? []), command.name()]);
      found.set(option.long, byText);
    }
  }
  return found;
}

/** The shared flags whose descriptions differ without a listed reason, with their texts. */
function drifted(root: Command): string[] {
  return [...descriptions(root)]
    .filter(([flag, texts]) => texts.size > 1 && !Object.hasOwn(GENUINE_DIFFERENCES, flag))
    .map(([flag, texts]) => `${flag}: ${JSON.stringify(Object.fromEntries(texts))}`);
}

describe("each flag has one description across commands", () => {
  it("every command is registered", async () => {
    const names = (await program()).commands.map((c) => c.name());
    expect(names).toEqual(Object.keys(COMMANDS));
    expect(names).toContain("simulate");
  });

  it("a flag shared by commands reads the same in all, unless its meaning differs", async () => {
    expect(drifted(await program())).toEqual([]);
  });

  it("every listed difference still exists (the list does not go stale)", async () => {
    const found = descriptions(await program());
    const stale = Object.keys(GENUINE_DIFFERENCES).filter((f) => (found.get(f)?.size ?? 0) < 2);
    expect(stale).toEqual([]);
  });

  it("a flag's parser reads every text the same in all commands, unless its meaning differs", async () => {
    const byFlag = new Map<string, Map<string, string[]>>();
    for (const command of (await program()).commands) {
      for (const option of command.options as Option[]) {
        if (!option.long || Object.hasOwn(PARSER_DIFFERENCES, option.long)) continue;
        const reading = SAMPLES.map((text) => `${text} → ${outcome(option, text)}`).join("; ");
        const readings = byFlag.get(option.long) ?? new Map<string, string[]>();
        readings.set(reading, [...(readings.get(reading) ?? []), command.name()]);
        byFlag.set(option.long, readings);
      }
    }
    const differing = [...byFlag].filter(([, readings]) => readings.size > 1).map(([f]) => f);
    expect(differing).toEqual([]);
    // The samples tell parsers apart: --level refuses what --seed reads.
    const analyze = (await program()).commands.find((c) => c.name() === "analyze") as Command;
    const [level, seed] = ["--level", "--seed"].map(
      (flag) => analyze.options.find((o) => o.long === flag) as Option,
    );
    expect(outcome(level as Option, "2")).toMatch(/^refused: --level 2/);
    expect(outcome(seed as Option, "2")).toBe("2");
  });

  it("a flag's default is the same in all commands, unless its meaning differs", async () => {
    const defaults = new Map<string, Set<string>>();
    for (const command of (await program()).commands)
      for (const option of command.options as Option[]) {
        if (!option.long) continue;
        const values = defaults.get(option.long) ?? new Set<string>();
        values.add(JSON.stringify(option.defaultValue) ?? "none");
        defaults.set(option.long, values);
      }
    const differing = [...defaults].filter(([, values]) => values.size > 1).map(([f]) => f);
    // simulate's bootstrap runs once per repetition: 999 replicates there, 9999 elsewhere.
    expect(differing).toEqual(["--replicates"]);
    expect([...(defaults.get("--replicates") ?? [])].sort()).toEqual(["999", "9999"]);
  });

  it("a flag shared by commands is declared by one function of src/cli/options.ts", async () => {
    const root = await program();
    expect(declaredApart(root)).toEqual([]);
    // The declarations are recorded as they are: analyze's --level by withLevelOption,
    // sql's --dialect (its own) in its command file.
    const option = (command: string, flag: string) =>
      root.commands
        .find((c) => c.name() === command)
        ?.options.find((o) => o.long === flag) as Option;
    expect(declarations.get(option("analyze", "--level"))).toBe(`${OPTIONS_FILE}#withLevelOption`);
    expect(declarations.get(option("sql", "--dialect"))).toBe(
      "src/cli/commands/sql.ts#registerSql",
    );
  });

  it("a shared flag declared again in a command's own file is caught, even word for word", async () => {
    // Another command declaring --level itself, with the same help, parser and default: the
    // description and parser checks above pass; the declaration check does not.
    const root = await program((root) => {
      root.command("extra").option("--level <level>", "confidence level", parseLevel, 0.95);
    });
    expect(drifted(root)).toEqual([]);
    expect(declaredApart(root)).toEqual([
      `--level: {"${OPTIONS_FILE}#withLevelOption":["analyze","compare","plan","simulate"],"test/cli/flagTable.test.ts#(anonymous)":["extra"]}`,
    ]);
  });

  it("a copy of --level whose help drifts in one command is caught", async () => {
    const root = await program();
    const plan = root.commands.find((c) => c.name() === "plan") as Command;
    const level = plan.options.find((o) => o.long === "--level") as Option;
    level.description = "the confidence level";
    expect(drifted(root)).toEqual([
      expect.stringMatching(
        /^--level: \{"confidence level":\["analyze","compare","simulate"\],"the confidence level":\["plan"\]\}$/,
      ),
    ]);
  });
});
