/**
 * Σ x_i with Neumaier's compensation (Neumaier 1974): the error of each addition is carried
 * separately, so the result is accurate to a few ulps even where plain summation cancels.
 */
export function compensatedSum(values: ArrayLike<number>): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    const t = sum + x;
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return sum + compensation;
}

/** Σ f(i) for i < length, with Neumaier's compensation; avoids materialising the terms. */
export function compensatedSumOf(length: number, term: (i: number) => number): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < length; i++) {
    const x = term(i);
    const t = sum + x;
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return sum + compensation;
}
