/**
 * ragci's ClickHouse statements as a server older than 20.8 can run them (Debian bookworm's is
 * 18.16), which lacks three things they use: WITH name AS (SELECT …) — each such CTE is written
 * out as a subquery where it is read —, more than one JOIN in a SELECT (a chain of CROSS JOINs
 * becomes nested SELECT *s of one each) and Decimal256 (Decimal128 holds the test data's sums as
 * exactly). Everything else — the casts, the checks and their failure (the blank-id pattern
 * included), the sums, the aliases — runs as ragci wrote it. Newer
 * servers get the statement unchanged.
 */
export function forClickHouseVersion(version: string): (sql: string) => string {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 20 || (major === 20 && minor >= 8)) return (sql) => sql;
  return (sql) => withoutCtes(oneJoinEach(sql)).replaceAll("toDecimal256(", "toDecimal128(");
}

/**
 * `WITH a AS (\n…\n),\nb AS (\n…\n)\nSELECT …` (the layout perDocumentSql writes) → the final
 * SELECT with `FROM a` and `JOIN a` replaced by `FROM (…) AS a`, recursively.
 */
function withoutCtes(sql: string): string {
  const head = /^WITH ([\s\S]*?)\n\)\nSELECT/.exec(sql);
  if (!head?.[1]) return sql;
  const ctes = head[1].split(/\n\),\n(?=\w+ AS \(\n)/).map((part) => {
    const named = /^(\w+) AS \(\n([\s\S]*)$/.exec(part);
    if (!named?.[1] || named[2] === undefined) throw new Error(`not a CTE: ${part.slice(0, 60)}`);
    return { name: named[1], body: named[2] };
  });
  const inline = (text: string, before: number): string => {
    let out = text;
    for (let i = before - 1; i >= 0; i--) {
      const { name, body } = ctes[i] as { name: string; body: string };
      out = out.replace(
        new RegExp(`\\b(FROM|JOIN) ${name}\\b(?! AS)`, "g"),
        (_, keyword: string) => `${keyword} (${inline(body, i)}) AS ${name}`,
      );
    }
    return out;
  };
  return inline(sql.slice(head[0].length - "SELECT".length), ctes.length);
}

/** `FROM a CROSS JOIN b CROSS JOIN c` → `FROM (SELECT * FROM a CROSS JOIN b) AS ragci_j1 CROSS JOIN c`. */
function oneJoinEach(sql: string): string {
  return sql.replace(/FROM (\w+)((?: CROSS JOIN \w+){2,})/g, (_, first: string, rest: string) => {
    const names = [first, ...rest.split(" CROSS JOIN ").filter((n) => n !== "")];
    let from = first;
    for (let i = 1; i < names.length - 1; i++)
      from = `(SELECT * FROM ${from} CROSS JOIN ${names[i]}) AS ragci_j${i}`;
    return `FROM ${from} CROSS JOIN ${names.at(-1)}`;
  });
}
