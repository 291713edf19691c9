/** Text made safe for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A tagged template that escapes every interpolated value (pass raw HTML through `raw`). */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  return strings.reduce((out, s, i) => {
    if (i === 0) return s;
    const value = values[i - 1];
    const text = value instanceof RawHtml ? value.text : escapeHtml(String(value ?? ""));
    return out + text + s;
  }, "");
}

/** Markup already built (by `html` or a figure renderer) that must not be escaped again. */
export class RawHtml {
  constructor(readonly text: string) {}
}

export function raw(text: string): RawHtml {
  return new RawHtml(text);
}
