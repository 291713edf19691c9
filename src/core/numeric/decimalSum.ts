/**
 * Σx as ragci's SQL adds it (ingest/summation.ts, "decimal"): each double cast to
 * DECIMAL(38, 18), the integers added exactly, the sum cast back to a double — with DuckDB's
 * rounding at both casts, so in-memory rows get the bits a file of the same rows gets, in any
 * order. The casts follow DuckDB's src/common/operator/cast_operators.cpp (DoubleToDecimalCast:
 * round(x · 10¹⁸) half away from zero, refused at |·| ≥ 10³⁸; TryCastDecimalToFloatingPoint:
 * integer part plus fraction / 10¹⁸) and src/common/types/hugeint.cpp (CastBigintToFloating).
 */
export class DecimalSum {
  private total = 0n;
  /** False once a value or the sum leaves DECIMAL(38, 18) (DuckDB's cast or HUGEINT sum fails). */
  fits = true;

  add(x: number): void {
    const scaled = roundHalfAway(x * 1e18);
    if (!(Math.abs(scaled) < 1e38)) {
      this.fits = false;
      return;
    }
    this.total += BigInt(scaled);
    if (this.total > HUGEINT_MAX || this.total < -HUGEINT_MAX - 1n) this.fits = false;
  }

  value(): number {
    return decimalToDouble(this.total);
  }
}

const SCALE = 10n ** 18n;
const HUGEINT_MAX = 2n ** 127n - 1n;
const TWO_53 = 2n ** 53n;
const UINT64_MAX = 2n ** 64n - 1n;

/** C's round(): to the nearest integer, halves away from zero (Math.round sends them up). */
function roundHalfAway(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/** A DECIMAL(38, 18)'s integer (value · 10¹⁸) as DuckDB casts it to DOUBLE. */
export function decimalToDouble(v: bigint): number {
  if (v >= -TWO_53 && v <= TWO_53) return hugeintToDouble(v) / 1e18;
  // Truncated division, as BigInt's: the remainder has the sign of v.
  return hugeintToDouble(v / SCALE) + hugeintToDouble(v % SCALE) / 1e18;
}

/** A 128-bit integer as DuckDB casts it to DOUBLE: lower + upper · 2⁶⁴, in doubles. */
function hugeintToDouble(h: bigint): number {
  const upper = h >> 64n;
  const lower = BigInt.asUintN(64, h);
  if (upper === -1n) return -Number(UINT64_MAX - lower) - 1;
  return Number(lower) + Number(upper) * 2 ** 64;
}
