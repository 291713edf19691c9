import { describe, expect, it } from "vitest";
import {
  fillBoundedIntegersJs,
  nextBoundedInteger,
} from "../../../src/core/numeric/boundedIntegers.js";
import { createPcg64, nextUint32, type Pcg64State } from "../../../src/core/numeric/pcg64.js";
import { BOUNDED_BLOCK } from "../../../src/core/numeric/pcg64Kernel.js";
import { boundedThroughKernel } from "../kernels/kernelCalls.js";

const threshold = (K: number) => (2 ** 32 - K) % K;
const sameState = (a: Pcg64State, b: Pcg64State) => {
  expect(Array.from(a.state)).toEqual(Array.from(b.state));
  expect(a.hasUint32).toBe(b.hasUint32);
  if (a.hasUint32) expect(a.uinteger).toBe(b.uinteger);
};

// boundedIntegers.test.ts holds the JS loop to numpy; here $bounded (which the document
// bootstrap draws with) is held to the JS loop draw for draw: every buffering state, lengths
// across the kernel's block, heavy rejection, and a stream that alternates kernel calls with
// single draws.
describe("the WebAssembly bounded-integer kernel", () => {
  const Ks = [2, 3, 7, 20, 1000, 2 ** 21 + 7, 2 ** 31 - 1, 2 ** 31 + 1, 3 * 2 ** 30, 2 ** 32 - 1];
  const lengths = [1, 2, 3, 64, 999];
  const blockLengths = [BOUNDED_BLOCK - 1, BOUNDED_BLOCK, BOUNDED_BLOCK + 1, 2 * BOUNDED_BLOCK + 3];
  it("gives the JS loop's integers and leaves the generator where it leaves it", () => {
    const cases = [
      ...Ks.flatMap((K) => lengths.map((n) => [K, n] as const)),
      ...[20, 2 ** 31 + 1].flatMap((K) => blockLengths.map((n) => [K, n] as const)),
    ];
    for (const [K, n] of cases)
      for (const buffered of [false, true]) {
        const a = createPcg64(5, [K % 7, n % 5]);
        const b = createPcg64(5, [K % 7, n % 5]);
        if (buffered) {
          nextUint32(a); // leaves a buffered high half, which must be the first draw
          nextUint32(b);
        }
        const fromKernel = new Uint32Array(n);
        const fromJs = new Uint32Array(n);
        boundedThroughKernel(a, K, threshold(K), fromKernel);
        fillBoundedIntegersJs(b, K, threshold(K), fromJs);
        expect(fromKernel, `K ${K}, n ${n}, buffered ${buffered}`).toEqual(fromJs);
        sameState(a, b);
      }
  });

  it("keeps one stream when kernel calls alternate with single draws of other bounds", () => {
    const a = createPcg64(11);
    const b = createPcg64(11);
    for (let step = 0; step < 200; step++) {
      const K = 2 + ((step * 7919) % 5000);
      const n = 1 + ((step * 104729) % 37);
      const x = new Uint32Array(n);
      const y = new Uint32Array(n);
      boundedThroughKernel(a, K, threshold(K), x);
      fillBoundedIntegersJs(b, K, threshold(K), y);
      expect(x).toEqual(y);
      expect(nextBoundedInteger(a, K + 1)).toBe(nextBoundedInteger(b, K + 1));
    }
    sameState(a, b);
  });
});
