import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evalResultsFile } from "../../../src/ingest/evalFormats/evalResultsFile.js";
import type { EvalContent } from "../../../src/ingest/evalFormats/evalRows.js";
import { inspectFormat, inspectSystem } from "../../../src/ingest/evalFormats/inspect.js";
import {
  readEvalContent,
  sniffEvalFormat,
} from "../../../src/ingest/evalFormats/readEvalContent.js";
import { zipJsonMembers } from "../../../src/ingest/evalFormats/zipMembers.js";
import { scratchDir } from "../../cli/runCli.js";

// Logs written by Inspect and committed in UKGovernmentBEIS/inspect_ai (README.md beside them).
const dir = join(import.meta.dirname, "../../fixtures/realTools/inspect");
const scratch = scratchDir();
const CANCELLED = "2025-05-12T20-28-13-04-00_popularity.json";
const SCORED = "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval";
const EPOCHS = "log_streaming.eval";
const HEADER_ONLY = "2024-08-29T15-11-17+00-00_popularity_5EAmX6wjMFqea6WY7XHzZp.json";
const HEADER_ONLY_ERROR = "2024-08-29T15-11-18+00-00_popularity_5EAmX6wjMFqea6WY7XHzZp.json";

type Json = Record<string, any>;

/** A log as its file holds it: the JSON, or the zip's spec, samples and reductions. */
function raw(name: string): { spec: Json; samples: Json[]; reductions: Json[] | null } {
  const bytes = readFileSync(join(dir, name));
  if (name.endsWith(".json")) {
    const log = JSON.parse(bytes.toString("utf8"));
    return { spec: log, samples: log.samples ?? [], reductions: log.reductions ?? null };
  }
  const members = zipJsonMembers(bytes, name);
  return {
    spec: members.get("header.json") as Json,
    samples: [...members.entries()]
      .filter(([n]) => n.startsWith("samples/"))
      .map(([, v]) => v as Json),
    reductions: (members.get("reductions.json") as Json[] | undefined) ?? null,
  };
}

/** Inspect's value_to_float for the values these logs hold. */
const toFloat = (v: unknown): number =>
  v === "C" ? 1 : v === "I" ? 0 : typeof v === "number" ? v : Number.NaN;

/** Each sample id's mean over its epochs of one scorer, recomputed from the raw samples. */
function epochMeans(samples: readonly Json[], scorer: string): Map<string, number> {
  const values = new Map<string, number[]>();
  for (const s of samples)
    values.set(String(s.id), [
      ...(values.get(String(s.id)) ?? []),
      toFloat(s.scores[scorer].value),
    ]);
  return new Map(
    [...values].map(([id, v]) => [id, v.reduce((a, b) => a + b, 0) / v.length] as const),
  );
}

const read = (content: EvalContent, file: string) =>
  inspectFormat.toRows(content, { file, docPath: ["id"] });

describe("inspect reader on logs written by Inspect", () => {
  it("two logs of one task and model (two runs) are two systems, named with their run ids", async () => {
    const result = await evalResultsFile(
      [CANCELLED, SCORED].map((f) => ({ path: join(dir, f), file: f })),
      { format: null, doc: "id", metrics: ["match"] },
    );
    try {
      const lines = readFileSync(result.path, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      for (const name of [CANCELLED, SCORED]) {
        const log = raw(name);
        const system = `popularity · openai/gpt-4o-mini · ${log.spec.eval.run_id}`;
        const mine = lines.filter((l) => l.system === system);
        const means = epochMeans(log.samples, "match");
        expect(mine.length).toBe(means.size);
        for (const l of mine) expect(l.match).toBe(means.get(l.query_id));
      }
      expect(new Set(lines.map((l) => l.system)).size).toBe(2);
      expect(result.rowsPerInput).toEqual([3, 10]);
    } finally {
      await result.cleanup();
    }
  });

  it("a cancelled log's samples are read, with a note that says its status", async () => {
    const got = read(await readEvalContent(join(dir, CANCELLED), CANCELLED), CANCELLED);
    expect(raw(CANCELLED).spec.status).toBe("cancelled");
    expect(got.notes).toContain(
      `Inspect: ${CANCELLED} has status cancelled, not success; its 3 logged sample epochs are read as they are, and any samples the run did not finish are absent`,
    );
    expect(got.rows.map((r) => r.metrics.match)).toEqual(
      raw(CANCELLED).samples.map((s) => toFloat(s.scores.match.value)),
    );
  });

  it("two epochs of a sample are one query whose value is the log's own reduction (here the mean)", async () => {
    const log = raw(EPOCHS);
    expect(log.samples.length).toBe(4);
    const means = epochMeans(log.samples, "match");
    const reduced = new Map(
      ((log.reductions?.[0]?.samples ?? []) as Json[]).map((s) => [String(s.sample_id), s.value]),
    );
    expect(reduced).toEqual(means);
    const got = read(await readEvalContent(join(dir, EPOCHS), EPOCHS), EPOCHS);
    expect(got.rows.map((r) => [r.query, r.metrics.match])).toEqual(
      [...new Set(log.samples.map((s) => String(s.id)))].map((id) => [id, means.get(id)]),
    );
    expect(got.notes).toContain(
      "Inspect: each sample's values are the log's own reductions over its epochs (2 epochs; reducer mean)",
    );
  });

  it("header-only logs (no samples key) get one true line: no samples, re-run with samples logged", async () => {
    for (const [name, why] of [
      [HEADER_ONLY, "a header-only log, as --no-log-samples or log_samples=False writes"],
      [HEADER_ONLY_ERROR, "status error"],
    ] as const) {
      expect("samples" in raw(name).spec).toBe(false);
      const content = await readEvalContent(join(dir, name), name);
      expect(inspectFormat.detect(content)).toBe(true);
      expect(() => read(content, name)).toThrow(
        `${name}: the Inspect log holds no samples (${why}); re-run the eval with samples logged`,
      );
    }
  });

  it("the same run in two files (log_formats.json and .eval, one run id and task id) is refused", async () => {
    await expect(
      evalResultsFile(
        ["log_formats.json", "log_formats.eval"].map((f) => ({ path: join(dir, f), file: f })),
        { format: null, doc: "id", metrics: ["match"] },
      ),
    ).rejects.toThrow(
      "log_formats.eval: holds the same inspect run as log_formats.json (system popularity · ollama/llama3.1 · BpiPFmbVcMCRUAXv8ovCTx); give one of the two files",
    );
  });
});

/** Where a member's compressed bytes start in a zip, from its local header. */
function memberData(bytes: Buffer, member: string): number {
  for (let at = bytes.indexOf("PK\x03\x04"); at >= 0; at = bytes.indexOf("PK\x03\x04", at + 4)) {
    const nameLength = bytes.readUInt16LE(at + 26);
    if (bytes.toString("utf8", at + 30, at + 30 + nameLength) === member)
      return at + 30 + nameLength + bytes.readUInt16LE(at + 28);
  }
  throw new Error(`no member ${member}`);
}

/** A copy of a real log with 60 bytes of one member's compressed data inverted. */
function damaged(name: string, member: string, from = 64): Buffer {
  const bytes = Buffer.from(readFileSync(join(dir, name)));
  const start = memberData(bytes, member) + from;
  for (let i = start; i < start + 60; i++) bytes[i] = (bytes[i] as number) ^ 0xff;
  return bytes;
}

describe("inspect reader on damaged copies of real .eval logs (imitations: bytes inverted by hand)", () => {
  it("a deflate member that does not decompress names the file and member: the log is damaged", () => {
    for (const member of ["samples/1_epoch_1.json", "header.json"])
      expect(() => zipJsonMembers(damaged("log_formats.eval", member), "copy.eval")).toThrow(
        new RegExp(
          `^copy\\.eval: the \\.eval log is damaged: member ${member.replace(".", "\\.")} does not decompress \\([^()]+\\); re-run the eval \\(or copy the log again, if it was damaged on the way\\)$`,
        ),
      );
  });

  it("a Zstandard member that does not decompress is refused the same way", () => {
    const zstd = join(import.meta.dirname, "../../fixtures/evalFormats/inspect-bm25.eval");
    const bytes = Buffer.from(readFileSync(zstd));
    for (let i = 700; i < 760; i++) bytes[i] = (bytes[i] as number) ^ 0xff;
    expect(() => zipJsonMembers(bytes, "zstd.eval")).toThrow(
      /^zstd\.eval: the \.eval log is damaged: member samples\/\S+\.json does not decompress \(invalid zstd data\); re-run the eval/,
    );
  });

  it("a member that decompresses to other bytes than recorded fails its CRC-32 or its size", () => {
    const bytes = Buffer.from(readFileSync(join(dir, "log_formats.eval")));
    const directory = bytes.indexOf("PK\x01\x02");
    // The first directory entry's CRC-32 (offset 16) and uncompressed size (offset 24).
    const crcEdited = Buffer.from(bytes);
    crcEdited.writeUInt32LE((crcEdited.readUInt32LE(directory + 16) ^ 1) >>> 0, directory + 16);
    expect(() => zipJsonMembers(crcEdited, "crc.eval")).toThrow(
      "crc.eval: the .eval log is damaged: member _journal/start.json does not match its checksum (CRC-32); re-run the eval (or copy the log again, if it was damaged on the way)",
    );
    const sizeEdited = Buffer.from(bytes);
    const size = sizeEdited.readUInt32LE(directory + 24);
    sizeEdited.writeUInt32LE(size + 1, directory + 24);
    expect(() => zipJsonMembers(sizeEdited, "size.eval")).toThrow(
      `size.eval: the .eval log is damaged: member _journal/start.json decompresses to ${size} bytes, not the ${size + 1} its directory gives; re-run the eval`,
    );
  });
});

describe("inspect reader on NaN scores, Inspect's unscored mark (imitations: real logs edited)", () => {
  /** The cancelled log with sample 2's score and its reduction NaN, written as Python does. */
  function withNan(): string {
    const log = JSON.parse(readFileSync(join(dir, CANCELLED), "utf8"));
    const mark = "__nan__";
    log.samples[1].scores.match.value = mark;
    const reduction = log.reductions[0].samples.find(
      (r: Json) => r.sample_id === log.samples[1].id,
    );
    reduction.value = mark;
    return JSON.stringify(log, null, 2).replaceAll(`"${mark}"`, "NaN");
  }

  it("a log holding the constant NaN is read as Inspect's log, the NaN as a number", async () => {
    const text = withNan();
    expect(text).toMatch(/"value": NaN/);
    const path = join(scratch, "nan.json");
    writeFileSync(path, text);
    expect((await sniffEvalFormat(path))?.name).toBe("inspect");
    const content = await readEvalContent(path, "nan.json");
    if (content.kind !== "json") throw new Error("a .json log is one JSON document");
    expect(Number.isNaN((content.value as Json).samples[1].scores.match.value)).toBe(true);
  });

  it("an unscored sample is refused, named, with what Inspect's NaN means and what to do", async () => {
    const path = join(scratch, "nan.json");
    writeFileSync(path, withNan());
    const refused = await evalResultsFile([{ path, file: "nan.json" }], {
      format: null,
      doc: "id",
      metrics: ["match"],
    }).then(
      () => "",
      (e: Error) => e.message,
    );
    const system = inspectSystem(raw(CANCELLED).spec, "nan.json");
    expect(refused).toBe(
      `nan.json: metric match has no number for 1 of 3 items (first: query 2 of system ${system}); every result needs a finite value, and Inspect writes NaN for a score its scorer did not give (Score.unscored), which its metrics leave out: re-score those samples (inspect score) or analyse another metric`,
    );
  });

  it("a NaN epoch is left out of its sample's mean (as Inspect's reducers do), with a note", async () => {
    const content = await readEvalContent(join(dir, EPOCHS), EPOCHS);
    if (content.kind !== "members") throw new Error("a .eval log is a zip");
    const members = new Map(content.members);
    members.delete("reductions.json");
    const samples = raw(EPOCHS).samples.map((s) => structuredClone(s));
    const [first] = samples as [Json];
    first.scores.match.value = Number.NaN;
    for (const [name] of [...members].filter(([n]) => n.startsWith("samples/")))
      members.delete(name);
    for (const [i, s] of samples.entries()) members.set(`samples/${i}.json`, s);
    const got = read({ kind: "members", members }, "nan.eval");
    const means = epochMeans(
      samples.filter((s) => s !== first),
      "match",
    );
    expect(Object.fromEntries(got.rows.map((r) => [r.query, r.metrics.match]))).toEqual(
      Object.fromEntries(means),
    );
    expect(got.metricNotes?.match).toBe(
      "Inspect: 1 epoch score is NaN for match (unscored, Score.unscored), left out of the sample's mean over its epochs as Inspect's reducers leave them out",
    );
  });
});

describe("inspect reader on edited copies of real logs (imitations of the edge cases)", () => {
  it("a non-mean epochs reducer without reductions in the log is refused", async () => {
    // This 0.3.41 log keeps its reductions in results.sample_reductions; the copy drops them.
    const edited = structuredClone(raw("log_formats.json").spec);
    expect(edited.results.sample_reductions).toHaveLength(1);
    delete edited.results.sample_reductions;
    edited.eval.config = { epochs: 1, epochs_reducer: ["mode"] };
    expect(() => read({ kind: "json", value: edited }, "mode.json")).toThrow(
      "mode.json: the Inspect log reduces epochs with mode but holds no reductions to read, and ragci would average them (mean); re-run with --epochs-reducer mean",
    );
  });

  it("a non-mean reducer with reductions: each sample's value is Inspect's reduction, not the mean", async () => {
    const content = await readEvalContent(join(dir, EPOCHS), EPOCHS);
    if (content.kind !== "members") throw new Error("a .eval log is a zip");
    const members = new Map(content.members);
    const header = structuredClone(members.get("header.json")) as Json;
    header.eval.config = { ...header.eval.config, epochs_reducer: ["max"] };
    const max = new Map<string, number>();
    for (const s of raw(EPOCHS).samples)
      max.set(String(s.id), Math.max(max.get(String(s.id)) ?? 0, toFloat(s.scores.match.value)));
    members.set("header.json", header);
    members.set("reductions.json", [
      {
        scorer: "match",
        reducer: "max",
        samples: [...max].map(([id, value]) => ({ sample_id: Number(id), value })),
      },
    ]);
    const got = read({ kind: "members", members }, "max.eval");
    expect(Object.fromEntries(got.rows.map((r) => [r.query, r.metrics.match]))).toEqual(
      Object.fromEntries(max),
    );
    expect(
      got.rows.some(
        (r) => r.metrics.match !== epochMeans(raw(EPOCHS).samples, "match").get(r.query),
      ),
    ).toBe(true);
  });

  it("two reducers of one scorer (epochs_reducer mean and max) give one metric each", async () => {
    const content = await readEvalContent(join(dir, EPOCHS), EPOCHS);
    if (content.kind !== "members") throw new Error("a .eval log is a zip");
    const members = new Map(content.members);
    const header = structuredClone(members.get("header.json")) as Json;
    header.eval.config = { ...header.eval.config, epochs_reducer: ["mean", "max"] };
    const samples = raw(EPOCHS).samples;
    const means = epochMeans(samples, "match");
    const max = new Map<string, number>();
    for (const s of samples)
      max.set(String(s.id), Math.max(max.get(String(s.id)) ?? 0, toFloat(s.scores.match.value)));
    const reduction = (reducer: string, values: Map<string, number>) => ({
      scorer: "match",
      reducer,
      samples: [...values].map(([id, value]) => ({ sample_id: Number(id), value })),
    });
    members.set("header.json", header);
    members.set("reductions.json", [reduction("mean", means), reduction("max", max)]);
    const got = read({ kind: "members", members }, "two.eval");
    expect(got.rows.map((r) => r.metrics)).toEqual(
      [...means.keys()].map((id) => ({ "match.mean": means.get(id), "match.max": max.get(id) })),
    );
  });

  it("a (sample id, epoch) logged twice is refused, not counted twice", async () => {
    const log = structuredClone(raw("log_formats.json").spec);
    log.samples.push(structuredClone(log.samples[0]));
    expect(() => read({ kind: "json", value: log }, "twice.json")).toThrow(
      "twice.json: sample 1 epoch 1 appears twice in the Inspect log; each sample's epoch is one trial, so the log must hold it once",
    );
  });
});
