import { describe, expect, it } from "vitest";
import { levelPercent, percent } from "../../src/report/format.js";
import { levelText } from "../../src/report/html/intervalTables.js";

/** The label's number, to compare with the level it names. */
const number = (label: string) => Number(label.replace(/%$/, ""));

describe("levelPercent: a level's label is the level, never rounded to 100%", () => {
  it.each([0.8, 0.9, 0.95, 0.99])("%s keeps the label percent() gave it", (level) => {
    expect(levelPercent(level)).toBe(percent(level));
    expect(levelPercent(level, 1)).toBe(percent(level, 1));
  });

  it.each([
    [0.999, "99.9%"],
    [0.905, "90.5%"],
  ])("%s keeps the terminal's and HTML's label %s", (level, label) => {
    expect(levelPercent(level)).toBe(label);
    expect(levelText(level)).toBe(label);
  });

  it.each([0.9999999999, 0.99999, 0.999999999999, 1 - 1e-14, 0.9999999999999999])(
    "%s is labelled below 100%%, as close to the level as 12 digits or its distance from 1 need",
    (level) => {
      const label = levelPercent(level, 1);
      expect(number(label)).toBeLessThan(100);
      const twelveDigits = Number((100 * level).toPrecision(12));
      if (twelveDigits < 100) expect(number(label)).toBe(twelveDigits);
      else expect(Math.abs(number(label) - 100 * level)).toBeLessThan(100 - number(label));
      expect(levelText(level)).toBe(levelPercent(level));
    },
  );

  it("writes 0.9999999999 as 99.99999999%, where percent() wrote 100.0%", () => {
    expect(percent(0.9999999999, 1)).toBe("100.0%");
    expect(levelPercent(0.9999999999)).toBe("99.99999999%");
    expect(levelPercent(0.9999999999, 1)).toBe("99.99999999%");
  });

  it("writes a gate's one-sided α at the usual levels as before, and a tiny one above 0%", () => {
    expect(levelPercent(0.025, 1)).toBe(percent(0.025, 1));
    expect(levelPercent(0.05, 1)).toBe(percent(0.05, 1));
    expect(levelPercent(5e-11, 1)).toBe("0.000000005%");
  });
});
