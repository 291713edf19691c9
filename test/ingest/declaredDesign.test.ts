import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionRef } from "../../src/core/errors.js";
import { declaredDesign } from "../../src/ingest/index.js";

const scratch = mkdtempSync(join(tmpdir(), "ragci-design-"));
const file = (name: string, design: unknown) => {
  const path = join(scratch, name);
  writeFileSync(path, JSON.stringify(design));
  return path;
};
const strata = file("strata.json", { design: "stratified", strata: { large: 17, small: 31 } });
const topics = file("topics.json", {
  design: "two-stage",
  first_stage_population: 10,
  second_stage_population: { t1: 28, t2: 5 },
});
const srs = file("srs.json", { design: "srs", population_documents: 1300 });

describe("declaredDesign", () => {
  it("SRS without a file: M from population, no label, no design for core", async () => {
    const d = await declaredDesign({ population: 40 });
    expect([d.kind, d.label, d.population, d.build(["x"])]).toEqual(["srs", null, 40, null]);
    expect((await declaredDesign({ design: srs })).population).toBe(1300);
  });

  it("a stratified file: the stratum column (default stratum) and the strata's sizes", async () => {
    const d = await declaredDesign({ design: strata, stratum: "size", lonelyPsu: "adjust" });
    expect(d.label).toBe("size");
    expect(d.build(["large", "small"])).toEqual({
      kind: "stratified",
      strata: ["large", "small"],
      populationSizes: { large: 17, small: 31 },
      lonelyPsu: "adjust",
    });
    expect((await declaredDesign({ design: strata })).label).toBe("stratum");
  });

  it("a two-stage file: the unit column (default psu), T and M_i", async () => {
    const d = await declaredDesign({ design: topics });
    expect(d.label).toBe("psu");
    expect(d.build(["t1"])).toEqual({
      kind: "two-stage",
      units: ["t1"],
      firstStagePopulation: 10,
      secondStagePopulation: { t1: 28, t2: 5 },
    });
  });

  it("refuses options that do not apply, naming them by their library names", async () => {
    await expect(declaredDesign({ stratum: "size" })).rejects.toThrow(
      `${optionRef("stratum")}, ${optionRef("psu")} and ${optionRef("lonelyPsu")} belong to a design`,
    );
    await expect(declaredDesign({ design: topics, lonelyPsu: "adjust" })).rejects.toThrow(
      `${optionRef("lonelyPsu")} applies to a stratified design; ${topics} is two-stage`,
    );
    await expect(declaredDesign({ design: topics, population: 40 })).rejects.toThrow(
      `${optionRef("population")} applies to SRS`,
    );
    await expect(declaredDesign({ design: srs, population: 40 })).rejects.toThrow(
      `${optionRef("population")} 40 disagrees with population_documents 1300`,
    );
    await expect(declaredDesign({ design: strata, stratum: "n" })).rejects.toThrow(
      "the design column cannot be named n",
    );
  });
});

describe("readDesign: the keys of a design file", () => {
  const refusal = async (name: string, design: unknown) =>
    (await declaredDesign({ design: file(name, design) }).catch((e: Error) => e)) as Error;

  it("refuses a key no design reads, with the closest known key (a misspelt one was ignored)", async () => {
    const docs = await refusal("docs.json", { design: "srs", population_docs: 500 });
    expect(docs.message).toMatch(
      /docs\.json: unknown key "population_docs" \(did you mean "population_documents"\?\); a design file's keys are "design", "population_documents", "strata", "lonely_psu", "first_stage_population", "second_stage_population", and "metric", "description", "paired", which describe it and are not read$/,
    );
    const hyphen = await refusal("hyphen.json", {
      design: "stratified",
      strata: { a: 3 },
      "lonely-psu": "adjust",
    });
    expect(hyphen.message).toMatch(/unknown key "lonely-psu" \(did you mean "lonely_psu"\?\)/);
    const other = await refusal("other.json", { design: "srs", weights: [1, 2] });
    expect(other.message).toMatch(/unknown key "weights"; a design file's keys are/);
  });

  it("refuses a key of another kind of design, and a file that is not an object", async () => {
    const strataInSrs = await refusal("mixed.json", { design: "srs", strata: { a: 3 } });
    expect(strataInSrs.message).toMatch(
      /mixed\.json: "strata" applies to a stratified design \(this one is "srs"\); the "srs" design reads "population_documents"$/,
    );
    expect((await refusal("null.json", null)).message).toMatch(
      /null\.json: a design file is a JSON object/,
    );
  });

  it("reads the reference fixtures' keys that describe the file (metric, description, paired)", async () => {
    const described = file("described.json", {
      design: "srs",
      population_documents: 40,
      metric: "hit5",
      description: "a note",
      paired: { a: "A", b: "B" },
    });
    expect((await declaredDesign({ design: described })).population).toBe(40);
  });
});
