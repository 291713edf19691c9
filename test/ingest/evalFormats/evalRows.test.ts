import { describe, expect, it } from "vitest";
import {
  averagedRows,
  docFieldMissing,
  finiteNumber,
  isJsonObject,
  Trials,
  valueAtPath,
} from "../../../src/ingest/evalFormats/evalRows.js";

describe("averagedRows", () => {
  it("averages each metric over a query's trials; a metric no trial scored is null", () => {
    const rows = averagedRows([
      {
        query: "q1",
        doc: "d1",
        system: "s",
        values: new Map([
          ["hit", [1, 0, 1, 1]],
          ["rr", []],
        ]),
      },
      { query: "q2", doc: null, system: "s", values: new Map([["f1", [0.5]]]) },
    ]);
    expect(rows).toEqual([
      { query: "q1", doc: "d1", system: "s", metrics: { hit: 0.75, rr: null, f1: null } },
      { query: "q2", doc: null, system: "s", metrics: { hit: null, rr: null, f1: 0.5 } },
    ]);
  });
});

describe("Trials", () => {
  it("gathers each system's query once (its document read at first sight), in order; a null value names the metric", () => {
    const trials = new Trials();
    let docReads = 0;
    const doc = (d: string) => () => {
      docReads++;
      return d;
    };
    Trials.add(trials.of("a", "q1", doc("d1")), "hit", 1);
    Trials.add(trials.of("b", "q1", doc("d1")), "hit", null);
    Trials.add(trials.of("a", "q1", doc("unused")), "hit", 0);
    Trials.add(trials.of("a", "q2", doc("d2")), "rr", 0.5);
    expect(docReads).toBe(3);
    expect(trials.rows()).toEqual([
      { query: "q1", doc: "d1", system: "a", metrics: { hit: 0.5, rr: null } },
      { query: "q1", doc: "d1", system: "b", metrics: { hit: null, rr: null } },
      { query: "q2", doc: "d2", system: "a", metrics: { hit: null, rr: 0.5 } },
    ]);
  });
});

describe("docFieldMissing", () => {
  it("names the file, an example path and the fields seen (or none)", () => {
    const error = docFieldMissing("run.json", "metadata.source_doc", {
      what: "fields seen in the first item",
      fields: ["input", "metadata.source_doc"],
    });
    expect(error.code).toBe("missing-column");
    expect(error.message).toBe(
      "run.json: name the document field with `doc` (e.g. `doc` metadata.source_doc); fields seen in the first item: input, metadata.source_doc",
    );
    expect(error.context).toEqual({ file: "run.json" });
    expect(docFieldMissing("x.eval", "a.b", { what: "metadata", fields: [] }).message).toMatch(
      /metadata: none$/,
    );
  });
});

describe("the field helpers", () => {
  it("isJsonObject: objects only, not null or arrays", () => {
    expect([{}, { a: 1 }, [], null, "x", 1].map(isJsonObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it("valueAtPath reads ids as JSON writes them; finiteNumber turns booleans into 0/1", () => {
    expect(valueAtPath({ m: { doc: 7 } }, ["m", "doc"])).toBe("7");
    expect(valueAtPath({ m: { doc: { x: 1 } } }, ["m", "doc"])).toBeNull();
    expect([true, false, 0.5, Number.NaN, "1"].map(finiteNumber)).toEqual([1, 0, 0.5, null, null]);
  });
});
