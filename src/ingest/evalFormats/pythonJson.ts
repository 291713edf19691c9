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

/** Same-length numbers for the constants, so that JSON.parse's positions stay the text's. */
const SAME_LENGTH: Readonly<Record<string, string>> = {
  NaN: "0.0",
  Infinity: "1.00e999",
  "-Infinity": "-1.00e999",
};

/**
 * Where and why a text is not JSON (constants read), as JSON.parse says it: its message, and
 * the character position it stopped at when it gives one; null when the text is JSON.
 */
export function pythonJsonFailure(
  text: string,
): { readonly message: string; readonly position: number | null } | null {
  try {
    JSON.parse(text.replace(TOKEN, (token) => SAME_LENGTH[token] ?? token));
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = / at position (\d+)/.exec(message);
    return { message, position: at ? Number(at[1]) : null };
  }
}
