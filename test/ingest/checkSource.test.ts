import { describe, expect, it } from "vitest";
import { optionRef } from "../../src/core/errors.js";
import { checkSource } from "../../src/ingest/index.js";

const url = "postgresql://me@db/eval";

describe("checkSource", () => {
  it("takes files, or a database url with a table or a SELECT", () => {
    expect(() => checkSource(["a.csv"], { aggregated: true, format: "csv" })).not.toThrow();
    expect(() => checkSource([], { url, table: "results" })).not.toThrow();
    expect(() => checkSource([], { url, sql: "SELECT 1" })).not.toThrow();
    expect(() => checkSource([], {}, null)).not.toThrow();
  });

  it("refuses every other combination, naming options by their library names", () => {
    const [u, table, sql] = [optionRef("url"), optionRef("table"), optionRef("sql")];
    expect(() => checkSource([], {})).toThrow(`give the results files, or ${u} URL ${table} T`);
    expect(() => checkSource([], {}, "the census file")).toThrow("give the census file, or");
    expect(() => checkSource(["a.csv"], { table: "t" })).toThrow(`${table} and ${sql} go with`);
    expect(() => checkSource(["a.csv"], { url, table: "t" })).toThrow("give either files or");
    expect(() => checkSource([], { url, table: "t", sql: "SELECT 1" })).toThrow(
      `${u} needs the rows`,
    );
    expect(() => checkSource([], { url, table: "t", aggregated: true })).toThrow(
      `leave out ${optionRef("aggregated")}`,
    );
    expect(() => checkSource([], { url, table: "t", format: "csv" })).toThrow(
      `${optionRef("format")} describes a file`,
    );
  });

  it("takes facets (trial, judge, variant) from files and from a database", () => {
    expect(() => checkSource(["a.csv"], { judge: "judge", trial: "epoch" })).not.toThrow();
    for (const facet of ["trial", "judge", "variant"] as const)
      expect(() => checkSource([], { url, table: "t", [facet]: "c" })).not.toThrow();
  });
});
