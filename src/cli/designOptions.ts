import type { Command } from "commander";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../core/designs/lonelyPsu.js";
import { RagciError } from "../core/errors.js";
import { withPsuOption } from "./options.js";

function parseLonelyPsu(text: string): LonelyPsu {
  if (isLonelyPsu(text)) return text;
  throw new RagciError(
    "invalid-option",
    `--lonely-psu ${text}: use one of ${LONELY_PSU_RULES.join(", ")} (R survey's survey.lonely.psu)`,
  );
}

/** Registers --design, --stratum, --psu and --lonely-psu (--population is an inference option). */
export function withDesignOptions(command: Command): Command {
  command
    .option(
      "--design <file>",
      "sampling design (JSON: srs, stratified or two-stage; docs/designs.md)",
    )
    .option("--stratum <column>", "stratum column for a stratified design (default: stratum)");
  return withPsuOption(command).option(
    "--lonely-psu <rule>",
    "stratum with one sampled document: fail (default), remove, adjust, average or certainty",
    parseLonelyPsu,
  );
}
