import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { ROOT } from "./runCli.js";

/** The shipped JSON Schemas' folder (schemas/). */
export const SCHEMAS = join(ROOT, "schemas");

/** ajv (draft 2020-12, strict) with every shipped schema added, each under its `$id`. */
export const ajv = new Ajv2020.default({ allErrors: true, strict: true });
for (const file of readdirSync(SCHEMAS))
  ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")));
