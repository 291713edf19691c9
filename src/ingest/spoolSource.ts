import { closeSync, constants, createWriteStream, openSync } from "node:fs";
import { type FileHandle, mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { optionRef, RagciError } from "../core/errors.js";
import { evalFormatOf, sniffEvalFormat } from "./evalFormats/readEvalContent.js";
import { hasFacets } from "./facetRequest.js";
import { fileStart } from "./fileStart.js";
import { INPUT_FORMATS } from "./inputFormat.js";
import type { FilesSource } from "./source.js";
import { toolOutputRefusal } from "./toolOutputRefusal.js";

/** An input as the readers take it: a regular file, the input itself or a copy of it. */
export interface SpooledSource {
  /** The path the readers read (and hash). */
  readonly path: string;
  /** How messages and the report name the input: "stdin" for -, else as given. */
  readonly displayName: string;
  /** What was decided for the user, each true of this input (e.g. the format read from content). */
  readonly notes: readonly string[];
  /** Removes the copy, if one was made. */
  readonly cleanup: () => Promise<void>;
}

export interface SpoolOptions {
  /** Read for "-"; without it "-" is an ordinary path. */
  readonly stdin?: Readable;
  /** The --format named, if any. */
  readonly format?: string | null;
  /** How long to wait for a writer to open a named pipe (FIFO) before giving up; 10 s. */
  readonly writerWaitMs?: number;
}

const DEFAULT_WRITER_WAIT_MS = 10_000;

/** Names of the process's standard input. */
const STDIN_NAMES = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

/** Names whose extension already tells the readers the format (inputFormat.ts, evalFormatOf). */
const KNOWN_EXTENSION = /\.(csv|tsv|tab|jsonl|ndjson|json|parquet|pq|eval)(\.gz|\.zst)?$/i;

/**
 * Opens a pipe for reading, waiting at most `waitMs` for a writer: opening a named pipe
 * blocks until a writer opens it (an anonymous one, such as bash's <(…), opens at once).
 *
 * @throws RagciError when no writer came
 */
async function openWithWriter(path: string, displayName: string, waitMs: number) {
  const opening = open(path, "r").catch((error: NodeJS.ErrnoException) => {
    throw new RagciError(
      "unreadable-input",
      `${displayName}: cannot read it (${error.code ?? error.message})`,
      {
        file: displayName,
      },
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  const handle = await Promise.race([opening, timedOut]);
  clearTimeout(timer);
  if (handle !== null) return handle;
  // The pending open holds a thread until a writer comes: be that writer for an instant (a
  // non-blocking write open succeeds because our reader is waiting), then close both.
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {}
  await opening.then(
    (h) => h.close(),
    () => {},
  );
  throw new RagciError(
    "unreadable-input",
    `${displayName}: FIFO has no writer after ${waitMs / 1000} s; start the program that writes to it first (or give a file)`,
    { file: displayName },
  );
}

/** gzip's or Zstandard's magic number at the start, if either. */
function compressionOf(start: Buffer): "gz" | "zst" | null {
  if (start.length >= 2 && start[0] === 0x1f && start[1] === 0x8b) return "gz";
  if (start.length >= 4 && start.readUInt32LE(0) === 0xfd2fb528) return "zst";
  return null;
}

/** The table format of a copy without a telling name, from its first bytes; null if unclear. */
function tableFormatOf(start: Buffer): "csv" | "tsv" | "jsonl" | "parquet" | null {
  if (start.subarray(0, 4).toString("latin1") === "PAR1") return "parquet";
  const text = start.toString("utf8").replace(/^\uFEFF/, "");
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  if (first.trimStart().startsWith("{")) return "jsonl";
  const tabs = first.split("\t").length - 1;
  const commas = first.split(",").length - 1;
  if (tabs > commas) return "tsv";
  if (commas > 0) return "csv";
  return null;
}

/**
 * Makes an input readable more than once. A regular file (or a missing path, left to the
 * readers' messages) is used as it is; standard input ("-") and anything else — a pipe such as
 * bash's <(…) or /dev/stdin, a named pipe, a device — can be read only once, so it is copied
 * to a private temporary file, which is then read and hashed. Without --format a copy whose
 * name does not tell the format gets it from its content: a tool's output, Parquet, JSON lines,
 * else TSV or CSV by the first line's separators (stated in `notes`).
 *
 * @throws RagciError when a named pipe has no writer, or the format cannot be told
 */
export async function spoolSource(
  file: string,
  options: SpoolOptions = {},
): Promise<SpooledSource> {
  // "/dev/stdin" is read from the process's standard input: the same bytes, and it need not be
  // openable by name (a socket, as when a Node parent gives input, is not).
  const fromStdin = (file === "-" || STDIN_NAMES.has(file)) && options.stdin !== undefined;
  if (!fromStdin) {
    const info = await stat(file).catch(() => null);
    if (info === null || info.isFile() || info.isDirectory())
      return { path: file, displayName: file, notes: [], cleanup: async () => {} };
  }
  const displayName = file === "-" ? "stdin" : file;
  const dir = await mkdtemp(join(tmpdir(), "ragci-pipe-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    let handle: FileHandle | null = null;
    if (!fromStdin)
      handle = await openWithWriter(
        file,
        displayName,
        options.writerWaitMs ?? DEFAULT_WRITER_WAIT_MS,
      );
    const raw = join(dir, "input");
    await pipeline(
      handle ? handle.createReadStream() : (options.stdin as Readable),
      createWriteStream(raw),
    );
    if ((await stat(raw)).size === 0)
      throw new RagciError(
        "empty-input",
        `${displayName}: nothing was read from ${fromStdin ? "standard input" : "it"}; there is nothing to analyse`,
        { file: displayName },
      );
    const name = file === "-" ? "stdin" : basename(file);
    const declared = options.format?.toLowerCase() ?? null;
    const notes: string[] = [];
    let copy = join(dir, name);
    const compression = KNOWN_EXTENSION.test(name) ? null : compressionOf(await fileStart(raw));
    if (compression !== null) {
      // DuckDB decompresses by the name's suffix; what is inside cannot be sniffed here.
      if (!declared || declared === "parquet" || !INPUT_FORMATS.includes(declared as never))
        throw new RagciError(
          "unreadable-input",
          `${displayName}: is ${compression === "gz" ? "gzip" : "Zstandard"}-compressed; name the format of what it holds with ${optionRef("format")} csv|tsv|jsonl`,
          { file: displayName, option: "format" },
        );
      copy = join(dir, `${name}.${declared}.${compression}`);
    } else if (declared && INPUT_FORMATS.includes(declared as never))
      copy = join(dir, `${name}.${declared}`);
    else if (!declared && !KNOWN_EXTENSION.test(name) && (await sniffEvalFormat(raw)) === null) {
      const format = tableFormatOf(await fileStart(raw));
      if (format === null)
        throw new RagciError(
          "unreadable-input",
          `${displayName}: cannot tell the format from its content; name it with ${optionRef("format")} ${INPUT_FORMATS.join("|")}`,
          { file: displayName, option: "format" },
        );
      copy = join(dir, `${name}.${format}`);
      notes.push(`${displayName}: read as ${format.toUpperCase()} (told from its content)`);
    }
    await rename(raw, copy);
    return { path: copy, displayName, notes, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * For readers of results tables only: an input (`path`, a file or the copy of standard input or
 * a pipe) that holds a tool's output, no --format named, is refused naming the input as the user
 * gave it (`displayName`) and what to run instead (toolOutputRefusal; `command` as there).
 * Without it a tool's JSON would reach DuckDB as a table and fail as malformed JSON, and a
 * pipe's copy, which keeps no table extension, would be reported by its temporary name.
 *
 * @throws RagciError naming the input, the tool and the commands to run
 */
export async function refuseToolOutput(
  path: string,
  displayName: string,
  source: FilesSource,
  command: string | null,
): Promise<void> {
  if (source.format) return;
  const tool = await evalFormatOf(path, null);
  if (tool !== null) throw toolOutputRefusal(displayName, tool.name, command, hasFacets(source));
}

/** spoolSource for each input in order; "-" may appear once (standard input is read once). */
export async function spoolSources(
  files: readonly string[],
  options: SpoolOptions = {},
): Promise<{ sources: SpooledSource[]; cleanup: () => Promise<void> }> {
  const sources: SpooledSource[] = [];
  const cleanup = async () => {
    await Promise.all(sources.map((s) => s.cleanup()));
  };
  try {
    for (const file of files) sources.push(await spoolSource(file, options));
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { sources, cleanup };
}
