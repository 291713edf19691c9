/**
 * Running Σ x_i with Neumaier's compensation (Neumaier 1974): the error of each addition is
 * carried separately, so the result is accurate to a few ulps even where plain summation
 * cancels. A class rather than a callback so that hot loops stay monomorphic and V8 inlines
 * `add` (about 3× faster than a shared sum-of-callback on 10⁶ documents).
 */
export class NeumaierSum {
  private sum = 0;
  private compensation = 0;

  add(x: number): void {
    const t = this.sum + x;
    this.compensation += Math.abs(this.sum) >= Math.abs(x) ? this.sum - t + x : x - t + this.sum;
    this.sum = t;
  }

  value(): number {
    return this.sum + this.compensation;
  }
}

/** Σ x_i, compensated (see NeumaierSum). */
export function compensatedSum(values: ArrayLike<number>): number {
  const sum = new NeumaierSum();
  for (let i = 0; i < values.length; i++) sum.add(values[i] as number);
  return sum.value();
}

/** Σ f(i) for i < length, compensated; avoids materialising the terms. */
export function compensatedSumOf(length: number, term: (i: number) => number): number {
  const sum = new NeumaierSum();
  for (let i = 0; i < length; i++) sum.add(term(i));
  return sum.value();
}
