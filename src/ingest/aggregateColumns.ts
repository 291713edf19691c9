import { type OptionName, optionRef, RagciError } from "../core/errors.js";

/** Header of the long per-document table written by --write-aggregates. */
export const AGGREGATE_COLUMNS = ["system", "metric", "doc", "n", "s", "ss", "min", "max"] as const;

/** Whether a per-document label column (a stratum, a psu) would repeat one of the table's names. */
export function isAggregateColumn(name: string): boolean {
  return (AGGREGATE_COLUMNS as readonly string[]).includes(name);
}

/**
 * A read's documentLabel must not repeat one of the table's names: a table written with it
 * would have two columns of that name.
 *
 * @throws RagciError "invalid-option" naming the column and the table's columns
 */
export function refuseAggregateNamedLabel(
  label: string | null | undefined,
  option: OptionName = "documentLabel",
): void {
  if (label == null || !isAggregateColumn(label)) return;
  throw new RagciError(
    "invalid-option",
    `${optionRef(option)} ${label}: the per-document table already has a column ${label} (${AGGREGATE_COLUMNS.join(", ")}); keep a column of another name`,
    { option, column: label },
  );
}
