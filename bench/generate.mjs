// Seeded synthetic inputs for bench/analyze.mjs. Everything here is deterministic given the seed.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/** sfc32: small, fast, 128-bit state; plenty for benchmark data. Returns floats in [0, 1). */
export function prng(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** A standard normal draw (Box–Muller, one of the pair). */
function normal(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export function docId(d, width = 7) {
  return `d${String(d + 1).padStart(width, "0")}`;
}

/**
 * K documents: n_d = 1 + floor(lognormal(μ = 1, σ = 1)) (mean ≈ 5, long right tail), a
 * per-document hit rate p_d = expit(N(0, 1.5²)) and s_d ~ Binomial(n_d, p_d).
 */
export function perDocument(k, seed) {
  const random = prng(seed);
  const n = new Float64Array(k);
  const s = new Float64Array(k);
  const ids = new Array(k);
  for (let d = 0; d < k; d++) {
    const nd = 1 + Math.floor(Math.exp(1 + normal(random)));
    const p = 1 / (1 + Math.exp(-1.5 * normal(random)));
    let hits = 0;
    for (let i = 0; i < nd; i++) if (random() < p) hits++;
    n[d] = nd;
    s[d] = hits;
    ids[d] = docId(d);
  }
  return { ids, n, s };
}

/** The aggregated CSV `doc,n,s` that `ragci analyze --aggregated` reads. */
export function writePerDocumentCsv(path, { ids, n, s }) {
  const lines = ["doc,n,s"];
  for (let d = 0; d < ids.length; d++) lines.push(`${ids[d]},${n[d]},${s[d]}`);
  writeFileSync(path, `${lines.join("\n")}\n`);
}

const HEADER = "doc_id,query_id,hit\n";
const DOC_WIDTH = 7; // d0000001
const QUERY_WIDTH = 8; // q00000001
const ROW_BYTES = 1 + DOC_WIDTH + 1 + 1 + QUERY_WIDTH + 1 + 1 + 1;

/** Byte size of the per-query CSV: every row has the same width. */
export function resultsCsvBytes(rows) {
  return HEADER.length + rows * ROW_BYTES;
}

/**
 * Per-query results `doc_id,query_id,hit`: `rows` rows over `docs` documents with skewed sizes
 * (lognormal weights, σ = 1.5, every document ≥ 1 row), rows shuffled (documents interleave, as
 * in a file ordered by query), hit ~ Bernoulli(p_d) with p_d = expit(N(0, 1.5²)).
 * Written in 4 MiB chunks of raw bytes. Reused when the file and its parameters match.
 */
export function ensureResultsCsv(path, rows, docs, seed) {
  const meta = `${path}.meta.json`;
  const params = JSON.stringify({ rows, docs, seed, bytes: resultsCsvBytes(rows), version: 1 });
  if (existsSync(path) && existsSync(meta) && readFileSync(meta, "utf8") === params) {
    if (statSync(path).size === resultsCsvBytes(rows)) return { reused: true, seconds: 0 };
  }
  mkdirSync(dirname(path), { recursive: true }); // bench/out/ is not in a fresh clone
  const started = performance.now();
  const random = prng(seed);
  const weights = new Float64Array(docs);
  let total = 0;
  for (let d = 0; d < docs; d++) {
    weights[d] = Math.exp(1.5 * normal(random));
    total += weights[d];
  }
  const sizes = new Int32Array(docs);
  let assigned = 0;
  for (let d = 0; d < docs; d++) {
    sizes[d] = 1 + Math.floor((weights[d] / total) * (rows - docs));
    assigned += sizes[d];
  }
  for (let d = 0; assigned < rows; d = (d + 1) % docs, assigned++) sizes[d]++;
  const rate = Float64Array.from({ length: docs }, () => 1 / (1 + Math.exp(-1.5 * normal(random))));
  const order = new Int32Array(rows);
  for (let d = 0, i = 0; d < docs; d++) for (let j = 0; j < sizes[d]; j++) order[i++] = d;
  for (let i = rows - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const idBytes = Buffer.from(Array.from({ length: docs }, (_, d) => docId(d, DOC_WIDTH)).join(""));
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(ROW_BYTES * 200_000);
  const query = new Uint8Array(QUERY_WIDTH).fill(48);
  writeSync(fd, HEADER);
  let at = 0;
  for (let i = 0; i < rows; i++) {
    const d = order[i];
    chunk[at++] = 100; // d
    for (let p = d * (DOC_WIDTH + 1) + 1, end = p + DOC_WIDTH; p < end; p++)
      chunk[at++] = idBytes[p];
    chunk[at++] = 44; // ,
    chunk[at++] = 113; // q
    for (let p = QUERY_WIDTH - 1; p >= 0; p--) {
      if (query[p] === 57) query[p] = 48;
      else {
        query[p]++;
        break;
      }
    }
    for (let p = 0; p < QUERY_WIDTH; p++) chunk[at++] = query[p];
    chunk[at++] = 44;
    chunk[at++] = random() < rate[d] ? 49 : 48;
    chunk[at++] = 10;
    if (at === chunk.length) {
      writeSync(fd, chunk, 0, at);
      at = 0;
    }
  }
  if (at > 0) writeSync(fd, chunk, 0, at);
  closeSync(fd);
  writeFileSync(meta, params);
  return { reused: false, seconds: (performance.now() - started) / 1000 };
}

/**
 * Per-query results `doc_id,query_id,hit` as Parquet, written by DuckDB itself (for sizes a
 * CSV writer in JS would take minutes over): row i's document is ⌊docs·u²⌋ with u a
 * multiplicative hash of i in [0, 1) (skewed sizes, documents interleaved), its query id
 * unique, and hit a 0/1 value from another hash at a rate that varies by document. Pure
 * integer arithmetic, so the file is the same on every run. Reused when its parameters match.
 */
export async function ensureResultsParquet(path, rows, docs) {
  const meta = `${path}.meta.json`;
  const params = JSON.stringify({ rows, docs, version: 1 });
  if (existsSync(path) && existsSync(meta) && readFileSync(meta, "utf8") === params)
    return { reused: true, seconds: 0 };
  mkdirSync(dirname(path), { recursive: true });
  const started = performance.now();
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const q = (p) => `'${p.replaceAll("'", "''")}'`;
  await connection.run(`COPY (
    SELECT 'd' || lpad(CAST(d AS VARCHAR), 7, '0') AS doc_id,
           'q' || lpad(CAST(i AS VARCHAR), 9, '0') AS query_id,
           CAST((i * 40503 + d * 7919) % 1000 < 200 + (d * 37) % 600 AS INTEGER) AS hit
    FROM (
      SELECT range AS i,
             CAST(floor(${docs} * pow(((range * 2654435761) % 4294967296) / 4294967296.0, 2)) AS BIGINT) AS d
      FROM range(${rows})
    )
  ) TO ${q(path)} (FORMAT parquet, ROW_GROUP_SIZE 1000000)`);
  connection.closeSync();
  instance.closeSync();
  writeFileSync(meta, params);
  return { reused: false, seconds: (performance.now() - started) / 1000 };
}
