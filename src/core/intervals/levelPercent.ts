/**
 * A confidence level (or its tail, α) as a percentage with as many decimals as it needs to be
 * written exactly, at least `decimals`: 95%, 99.9%, 99.99999999% — where percent() would round
 * 0.999 and 0.9999999999 up to 100%, a level no interval has. The ×100's last-bit noise
 * (99.99999998999999) is dropped at 12 significant digits; a level closer to 1 than that keeps
 * the digits that set it apart from 100% (and from 0%).
 *
 * @example [0.95, 0.999, 0.9999999999].map((l) => levelPercent(l)) // => ["95%", "99.9%", "99.99999999%"]
 */
export function levelPercent(value: number, decimals = 0): string {
  const scaled = 100 * value;
  const exact = Number(scaled.toPrecision(12));
  let places = decimals;
  while (places < 20 && Number(exact.toFixed(places)) !== exact) places++;
  let text = exact.toFixed(places);
  // Within 12 digits of 100% (or 0%): as many more as tell the level apart.
  while (places < 20 && value > 0 && value < 1 && (Number(text) >= 100 || Number(text) <= 0))
    text = scaled.toFixed(++places);
  return `${text}%`;
}
