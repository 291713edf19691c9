import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../../src/core/errors.js";
import { evalResultsFile } from "../../../src/ingest/evalFormats/evalResultsFile.js";
import type { EvalRows } from "../../../src/ingest/evalFormats/evalRows.js";
import {
  namedEvalFormat,
  readEvalContent,
  sniffEvalFormat,
} from "../../../src/ingest/evalFormats/readEvalContent.js";
import { trecEvalFormat } from "../../../src/ingest/evalFormats/trecEval.js";
import { resolveColumn } from "../../../src/ingest/resolveColumns.js";
import { scratchDir } from "../../cli/runCli.js";

// Outputs written by trec_eval 10.0 itself (README.md there has the commands).
const dir = join(import.meta.dirname, "../../fixtures/realTools/trec_eval");
const path = (name: string) => join(dir, name);
const load = (name: string) => readEvalContent(path(name), name);

/** query → document, from the committed doc-map.csv. */
const docMap = new Map(
  readFileSync(path("doc-map.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(",") as [string, string]),
);

/** The file's lines as the test reads them: measure, query, value, trimmed. */
function lines(name: string): { measure: string; query: string; value: string }[] {
  return readFileSync(path(name), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [measure, query, value] = l.split("\t").map((f) => f.trim()) as [
        string,
        string,
        string,
      ];
      return { measure, query, value };
    });
}

/** The file read by the tool ragci detects in it (trec_eval's reader, else the test fails). */
async function read(name: string): Promise<EvalRows> {
  const format = await sniffEvalFormat(path(name));
  expect(format?.name, name).toBe("trec_eval");
  return trecEvalFormat.toRows(await load(name), { file: name, docPath: null, docMap });
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagciError);
    return (error as Error).message;
  }
  throw new Error("expected a RagciError");
}

describe("trec_eval reader on trec_eval's own outputs", () => {
  const outputs = ["all_trec.txt", "default.txt", "ndcg_cut-P.txt", "all_trec-c.txt"];

  it("detects -m all_trec, the default measures, parameterised measures and -c, from content and with --format", async () => {
    for (const name of [...outputs, "all_trec-summary.txt"]) {
      expect(await sniffEvalFormat(path(name)), name).toBe(trecEvalFormat);
      expect(namedEvalFormat("trec_eval")?.detect(await load(name)), name).toBe(true);
    }
    // Neither the run, the qrels nor the doc map are trec_eval's output.
    for (const name of ["run.txt", "qrels.txt", "doc-map.csv"])
      expect(trecEvalFormat.detect(await load(name)), name).toBe(false);
  });

  for (const name of outputs) {
    it(`${name}: every numeric per-query line is a metric of its query, equal to the printed value`, async () => {
      const { rows } = await read(name);
      const perQuery = lines(name).filter((l) => l.query !== "all" && l.measure !== "runid");
      const numeric = perQuery.filter((l) => !l.value.startsWith("'"));
      const queries = [...new Set(perQuery.map((l) => l.query))];
      expect(rows.map((r) => r.query)).toEqual(queries);
      const byQuery = new Map(rows.map((r) => [r.query, r]));
      for (const line of numeric)
        expect(
          byQuery.get(line.query)?.metrics[line.measure],
          `${line.measure} ${line.query}`,
        ).toBe(Number(line.value));
      // Nothing else: as many metrics as numeric lines, each row in the run and the doc map.
      expect(rows.reduce((n, r) => n + Object.keys(r.metrics).length, 0)).toBe(numeric.length);
      const runid = lines(name).find((l) => l.measure === "runid")?.value;
      for (const row of rows) {
        expect(row.doc).toBe(docMap.get(row.query));
        expect(row.system).toBe(runid ?? name.replace(/\.txt$/, ""));
      }
    });
  }

  it("all_trec: relstring (a quoted string) is left out with a note; the averages and runid are not rows", async () => {
    const read1 = await read("all_trec.txt");
    expect(lines("all_trec.txt").some((l) => l.measure === "relstring")).toBe(true);
    expect(read1.rows.every((r) => !("relstring" in r.metrics))).toBe(true);
    expect(read1.rows.some((r) => r.query === "all")).toBe(false);
    expect(read1.notes).toContain(
      "trec_eval: relstring left out (a string of judgments, not a number)",
    );
    // 1719 is judged only in qrels-unretrieved.txt, 1720 is in the run only: not printed.
    expect(read1.notes).toContain(
      "trec_eval: 2 queries of `docMap` not in all_trec.txt (first: 1719); trec_eval prints only the queries of its qrels",
    );
    // Measures with a decimal point and those trec_eval names in all_trec's per-query lines.
    const names = Object.keys(read1.rows[0]?.metrics ?? {});
    for (const m of ["iprec_at_recall_0.00", "Rprec_mult_0.20", "11pt_avg", "P_5", "set_F"])
      expect(names).toContain(m);
    expect(names).not.toContain("gm_map"); // summary only
  });

  it("counts (printed as %ld) are metrics, noted as counts", async () => {
    const read1 = await read("all_trec.txt");
    const printedAsIntegers = [
      ...new Set(
        lines("all_trec.txt")
          .filter((l) => l.query !== "all" && /^\d+$/.test(l.value))
          .map((l) => l.measure),
      ),
    ];
    expect(printedAsIntegers.sort()).toEqual(
      ["num_nonrel_judged_ret", "num_rel", "num_rel_ret", "num_ret"].sort(),
    );
    expect(Object.keys(read1.metricNotes ?? {}).sort()).toEqual(printedAsIntegers);
    expect(read1.metricNotes?.num_rel).toBe(
      "trec_eval: num_rel is a count per query (printed as an integer), not a score",
    );
  });

  it("-c: the judged, unretrieved query is read with trec_eval's zeros", async () => {
    const { rows } = await read("all_trec-c.txt");
    const unretrieved = rows.find((r) => r.query === "1719");
    expect(unretrieved?.metrics.num_ret).toBe(0);
    expect(unretrieved?.metrics.num_rel).toBe(
      Number(
        lines("all_trec-c.txt").find((l) => l.query === "1719" && l.measure === "num_rel")?.value,
      ),
    );
  });

  it("parameterised measures (-m ndcg_cut.5,10 -m P.5) are read by their printed names, the system named after the file", async () => {
    const { rows, notes } = await read("ndcg_cut-P.txt");
    expect(Object.keys(rows[0]?.metrics ?? {})).toEqual(["P_5", "ndcg_cut_5", "ndcg_cut_10"]);
    expect(notes[0]).toContain("(no runid line: named after the file)");
  });

  it("only the run's averages (trec_eval without -q): one line saying to run with -q", async () => {
    const content = await load("all_trec-summary.txt");
    expect(lines("all_trec-summary.txt").every((l) => l.query === "all")).toBe(true);
    expect(
      failure(() =>
        trecEvalFormat.toRows(content, { file: "all_trec-summary.txt", docPath: null, docMap }),
      ),
    ).toBe(
      "all_trec-summary.txt: has only the run's averages (qid all): run trec_eval with -q to print per-query values",
    );
  });

  it("two outputs in one file (hand-joined from all_trec.txt) are refused at the first repeated line", async () => {
    const text = readFileSync(path("all_trec.txt"), "utf8");
    const content = { kind: "text" as const, text: text + text };
    const first = lines("all_trec.txt")[0] as { measure: string; query: string };
    const again = lines("all_trec.txt").length + 1;
    expect(
      failure(() => trecEvalFormat.toRows(content, { file: "two.txt", docPath: null, docMap })),
    ).toBe(
      `two.txt line ${again}: ${first.measure} of query ${first.query} again (first on line 1); give each trec_eval run's output as its own file`,
    );
  });

  it("ragci's names resolve to trec_eval's (hit@5, mrr, ndcg@10, recall@10, map@10)", async () => {
    const { rows } = await read("all_trec.txt");
    const names = Object.keys(rows[0]?.metrics ?? {});
    const resolve = (m: string) => resolveColumn(m, names, "all_trec.txt", "metric");
    expect(resolve("hit@5")).toBe("success_5");
    expect(resolve("mrr")).toBe("recip_rank");
    expect(resolve("ndcg@10")).toBe("ndcg_cut_10");
    expect(resolve("recall@10")).toBe("recall_10");
    expect(resolve("map@10")).toBe("map_cut_10");
    expect(resolve("P@5")).toBe("P_5");
    // And back: trec_eval's names on ragci's example columns.
    expect(resolveColumn("success_5", ["hit1", "hit5", "rr"], "t.csv", "metric")).toBe("hit5");
    expect(resolveColumn("recip_rank", ["hit1", "hit5", "rr"], "t.csv", "metric")).toBe("rr");
  });

  it("the per-query table written for the readers carries the asked measures and the count note", async () => {
    const converted = await evalResultsFile(
      [{ path: path("all_trec.txt"), file: "all_trec.txt" }],
      {
        format: null,
        doc: null,
        metrics: ["mrr", "num_rel_ret"],
        docMap,
      },
    );
    try {
      expect(converted.tools).toEqual(["trec_eval"]);
      expect(converted.metrics).toEqual(["recip_rank", "num_rel_ret"]);
      expect(converted.notes).toContain(
        "trec_eval: num_rel_ret is a count per query (printed as an integer), not a score",
      );
      const written = readFileSync(converted.path, "utf8").trim().split("\n");
      const rr = lines("all_trec.txt").filter(
        (l) => l.measure === "recip_rank" && l.query !== "all",
      );
      expect(written.map((l) => JSON.parse(l).recip_rank)).toEqual(rr.map((l) => Number(l.value)));
    } finally {
      await converted.cleanup();
    }
  });

  it("asking for relstring or a summary-only measure (gm_map) says why it is not a metric", async () => {
    const all = lines("all_trec.txt");
    // gm_map is printed under qid all only; relstring per query, quoted.
    expect(all.filter((l) => l.measure === "gm_map").map((l) => l.query)).toEqual(["all"]);
    expect(all.some((l) => l.measure === "relstring" && l.query !== "all")).toBe(true);
    const ask = (metric: string) =>
      evalResultsFile([{ path: path("all_trec.txt"), file: "all_trec.txt" }], {
        format: null,
        doc: null,
        metrics: [metric],
        docMap,
      }).then(
        () => "read",
        (e: Error) => e.message,
      );
    expect(await ask("relstring")).toBe(
      "all_trec.txt: relstring is a string of judgments per query, not a number; name a numeric measure",
    );
    expect(await ask("gm_map")).toBe(
      "all_trec.txt: gm_map has only the run's average (qid all), no per-query value; name a per-query measure",
    );
  });

  it("a non-trec_eval line inside the output is named by its line number", async () => {
    const file = join(scratchDir(), "broken.txt");
    const text = readFileSync(path("ndcg_cut-P.txt"), "utf8").split("\n");
    text.splice(3, 0, "P_5 1659 0.4000 extra");
    writeFileSync(file, text.join("\n"));
    const content = await readEvalContent(file, "broken.txt");
    expect(
      failure(() => trecEvalFormat.toRows(content, { file: "broken.txt", docPath: null, docMap })),
    ).toBe(
      `broken.txt line 4: not a trec_eval line ("measure<TAB>query<TAB>value"); give the output of trec_eval -q unchanged`,
    );
  });
});
