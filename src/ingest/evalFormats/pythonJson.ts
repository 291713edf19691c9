// JSON as Python writes it: json.dumps, and pydantic with ser_json_inf_nan="constants" (as
// Inspect writes its logs: inspect_ai design/nan-serialization.md, scorer/_metric.py Score),
// write a float that is not finite as the bare constants NaN, Infinity and -Infinity, which
// JSON.parse refuses. Inspect's NaN is a score the scorer did not give (Score.unscored).

/** A bare constant outside strings, or a string (skipped whole). */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g;

/** Stand-ins for the constants: strings no JSON text holds unless it holds them whole. */
const MARKS: Readonly<Record<string, number>> = {
  "\u0000ragci:NaN": Number.NaN,
  "\u0000ragci:Infinity": Number.POSITIVE_INFINITY,
  "\u0000ragci:-Infinity": Number.NEGATIVE_INFINITY,
};

/**
 * JSON.parse, also reading the constants NaN, Infinity and -Infinity outside strings as the
 * numbers they name.
 *
 * @throws SyntaxError as JSON.parse, when the text is not JSON even with the constants read
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text) || text.includes("\\u0000ragci:")) throw error;
    const marked = text.replace(TOKEN, (token) =>
      token.startsWith('"') ? token : JSON.stringify(`\u0000ragci:${token}`),
    );
    return JSON.parse(marked, (_key, value) =>
      typeof value === "string" && value in MARKS ? MARKS[value] : value,
    );
  }
}
