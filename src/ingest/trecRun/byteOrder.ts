/**
 * C's strcmp order on the UTF-8 bytes of two strings, which trec_eval sorts docnos and query
 * ids by. JavaScript's `<` compares UTF-16 code units, which agrees with it except when a
 * string has a character outside the Basic Multilingual Plane (a surrogate pair).
 */
export function byteOrder(a: string, b: string): number {
  if (/[\uD800-\uDFFF]/.test(a) || /[\uD800-\uDFFF]/.test(b))
    return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
  return a < b ? -1 : a > b ? 1 : 0;
}
