import type { Command } from "commander";
import type { CommandIo } from "./io.js";

/** Adds one command, its flags and its action to the program. */
export type Register = (program: Command, io: CommandIo) => void;

/**
 * The commands, in the order of `ragci --help`, each loaded only when needed: a run of one
 * command loads that command's modules alone (the others' are most of the CLI's start-up).
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  analyze: async () => (await import("./commands/analyze.js")).registerAnalyze,
  compare: async () => (await import("./commands/compare.js")).registerCompare,
  plan: async () => (await import("./commands/plan.js")).registerPlan,
  strata: async () => (await import("./commands/strata.js")).registerStrata,
  simulate: async () => (await import("./commands/simulate.js")).registerSimulate,
  aggregate: async () => (await import("./commands/aggregate.js")).registerAggregate,
  merge: async () => (await import("./commands/merge.js")).registerMerge,
  sql: async () => (await import("./commands/sql.js")).registerSql,
};
