/**
 * A parser for the block subset of YAML that GitHub workflow files are usually written in, for
 * tests (the project has no YAML dependency): block mappings, block sequences of scalars or
 * mappings, literal block scalars (`|`, clipped), plain, single- and double-quoted scalars, and
 * comments. Anything outside that subset — tabs in indentation, flow collections, anchors,
 * aliases, tags, folded scalars, multi-line plain scalars, duplicate keys, bad indentation — is
 * an error naming the line, so a file that parses here has one reading. Scalars stay strings.
 */
export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  readonly number: number;
  readonly indent: number;
  /** The content after the indentation, comment removed and trailing spaces trimmed. */
  readonly text: string;
  /** The raw line (literal blocks keep their text, # included). */
  readonly raw: string;
}

class YamlSubsetError extends Error {}

function fail(line: Line | undefined, message: string): never {
  throw new YamlSubsetError(`line ${line?.number ?? "end"}: ${message}`);
}

/** The line without a comment: "#" at the start or after a space, outside quotes. */
function withoutComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:-]/.test(text[i - 1] as string))) quote = c;
    else if (c === "#" && (i === 0 || text[i - 1] === " ")) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function scalar(text: string, line: Line): string {
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) fail(line, `unterminated or trailing text: ${text}`);
    return text.slice(1, -1).replace(/\\(.)/g, (_, c: string) => {
      const escapes: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\" };
      if (!(c in escapes)) fail(line, `escape \\${c} is outside the subset`);
      return escapes[c] as string;
    });
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) fail(line, `unterminated or trailing text: ${text}`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (/^[[\]{}&*!>%@`|]/.test(text)) fail(line, `${text}: flow, anchor, tag or block indicator`);
  if (/: |:$/.test(text)) fail(line, `${text}: a plain scalar with ": " (quote it)`);
  return text;
}

/** "key: rest" → [key, rest]; the key is plain or quoted. */
function keyOf(text: string, line: Line): [string, string] | null {
  const match = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#][^:]*?)\s*:(?:\s+(.*)|)$/.exec(text);
  if (!match) return null;
  return [scalar(match[1] as string, line), match[2] ?? ""];
}

class Parser {
  private at = 0;
  private lines: readonly Line[];
  constructor(lines: readonly Line[]) {
    this.lines = lines;
  }

  parse(): YamlValue {
    if (this.lines.length === 0) return null;
    const first = this.lines[0] as Line;
    if (first.indent !== 0) fail(first, "the document must start at column 0");
    const value = this.block(0);
    if (this.at < this.lines.length) fail(this.lines[this.at], "unexpected indentation");
    return value;
  }

  private peek(): Line | undefined {
    return this.lines[this.at];
  }

  private block(indent: number): YamlValue {
    const line = this.peek() as Line;
    return line.text.startsWith("- ") || line.text === "-"
      ? this.sequence(indent)
      : this.mapping(indent);
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      if (!(line.text.startsWith("- ") || line.text === "-")) fail(line, "expected a '- ' item");
      const rest = line.text.slice(2).trimStart();
      const inner = indent + 2 + (line.text.slice(2).length - rest.length);
      if (rest === "") {
        this.at++;
        const next = this.peek();
        items.push(next && next.indent > indent ? this.block(next.indent) : null);
      } else if (keyOf(rest, line)) {
        // "- key: value": a mapping whose first entry shares the dash's line.
        this.lines = [
          ...this.lines.slice(0, this.at),
          { ...line, indent: inner, text: rest },
          ...this.lines.slice(this.at + 1),
        ];
        items.push(this.mapping(inner));
      } else {
        this.at++;
        items.push(scalar(rest, line));
      }
    }
    return items;
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const map: { [key: string]: YamlValue } = {};
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      const entry = keyOf(line.text, line);
      if (!entry) fail(line, `expected "key: value", found ${line.text}`);
      const [key, rest] = entry;
      if (Object.hasOwn(map, key)) fail(line, `duplicate key ${key}`);
      this.at++;
      if (rest === "|") map[key] = this.literal(indent, line);
      else if (rest !== "") map[key] = scalar(rest, line);
      else {
        const next = this.peek();
        const nested =
          next &&
          (next.indent > indent ||
            (next.indent === indent && (next.text.startsWith("- ") || next.text === "-")));
        map[key] = nested ? this.block(next.indent) : null;
      }
    }
    const next = this.peek();
    if (next && next.indent > indent) fail(next, "unexpected indentation");
    return map;
  }

  /** A literal block scalar: the more-indented lines, their common indentation removed. */
  private literal(indent: number, header: Line): string {
    const body: Line[] = [];
    while (this.at < this.lines.length && (this.peek() as Line).indent > indent) {
      body.push(this.peek() as Line);
      this.at++;
    }
    if (body.length === 0 || (body[0] as Line).raw.trim() === "")
      fail(header, "empty literal block, or one starting with a blank line");
    const blockIndent = (body[0] as Line).indent;
    const text = body.map((l) => {
      if (l.indent < blockIndent && l.raw.trim() !== "") fail(l, "less indented than its block");
      return l.raw.slice(blockIndent);
    });
    return `${text.join("\n").replace(/\n+$/, "")}\n`;
  }
}

/**
 * Parses the block subset of YAML (see the file's comment).
 *
 * @throws Error naming the line of anything outside the subset
 */
export function parseBlockYaml(source: string): YamlValue {
  if (source.includes("\t")) throw new YamlSubsetError("tabs are outside the subset");
  const raw = source.replace(/\r\n/g, "\n").split("\n");
  const lines: Line[] = [];
  let inLiteral: number | null = null;
  raw.forEach((text, i) => {
    const indent = text.length - text.trimStart().length;
    if (inLiteral !== null) {
      if (text.trim() === "" || indent > inLiteral) {
        // Inside a literal block: kept raw (blank lines and "#" are content).
        lines.push({
          number: i + 1,
          indent: text.trim() === "" ? inLiteral + 1 : indent,
          text,
          raw: text,
        });
        return;
      }
      inLiteral = null;
    }
    const content = withoutComment(text.trimStart());
    if (content === "") return;
    if (content === "---" && lines.length === 0) return;
    if (/:\s+\|$/.test(content)) inLiteral = indent;
    lines.push({ number: i + 1, indent, text: content, raw: text });
  });
  return new Parser(lines).parse();
}
