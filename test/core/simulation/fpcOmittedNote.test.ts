/**
 * The note of an SRS study run without the fpc where a sample takes a material share of the
 * census: when it is given, and the width factor it quotes.
 */
import { describe, expect, it } from "vitest";
import { FPC_NOTE_FRACTION, fpcOmittedNote } from "../../../src/core/simulation/fpcOmittedNote.js";

describe("fpcOmittedNote", () => {
  it("quotes the largest K's share and 1/√(1 − K/M), the other large K after it", () => {
    const note = fpcOmittedNote([5, 20, 50], 98, false) ?? "";
    expect(note).toMatch(
      /^K = 50 is 51\.0% of the census's 98 documents \(K = 20, 20\.4%; K = 5, 5\.1%\)/,
    );
    // 1/√(1 − 50/98) = 1.4289
    expect(note).toContain("1/√(1 − K/M) = 1.43× as wide as with the fpc");
    expect(note).toContain("`fpc`");
  });

  it("is null with the fpc, and below the threshold", () => {
    expect(fpcOmittedNote([50], 98, true)).toBeNull();
    expect(fpcOmittedNote([5, 10, 20, 50], 1300, false)).toBeNull();
  });

  it("starts at K/M = FPC_NOTE_FRACTION exactly", () => {
    expect(FPC_NOTE_FRACTION).toBe(0.05);
    expect(fpcOmittedNote([5], 100, false)).toMatch(
      /^K = 5 is 5\.0% of the census's 100 documents and the study ran without /,
    );
    expect(fpcOmittedNote([4], 100, false)).toBeNull();
  });
});
