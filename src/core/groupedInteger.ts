/**
 * A whole number with commas between groups of three digits ("2,000,000"), as
 * `toLocaleString("en-US")` writes it but without loading ICU's locale data, which costs
 * ~10 ms on its first call (a help text built at start-up, a warning). Other numbers are
 * written as String() writes them; -0 is "0" (String(-0)), not ICU's "-0".
 */
export function groupedInteger(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  const digits = String(Math.abs(value));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3)
    grouped += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${grouped}` : grouped;
}
