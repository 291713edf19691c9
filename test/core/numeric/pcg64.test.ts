import { describe, expect, it } from "vitest";
import {
  createPcg64,
  createPcg64FromSeedWords,
  fillUint32,
  nextUint32,
  nextUint64Parts,
} from "../../../src/core/numeric/pcg64.js";
import { hex64, runNumpy } from "./numpyOracle.js";

const SEEDS = [0, 1, 2, 99, 12345, 2 ** 32 + 7, 2 ** 53 - 1];
const N_RAW = 1000;

/** 128-bit value of four little-endian 32-bit limbs, as hex (test-side only, BigInt is fine). */
function limbsHex(limbs: Uint32Array): string {
  let v = 0n;
  for (let i = 3; i >= 0; i--) v = (v << 32n) | BigInt(limbs[i] as number);
  return v.toString(16);
}

describe("PCG64 (numpy.random.PCG64)", () => {
  it("seeds the state and increment exactly as numpy", () => {
    const expected = runNumpy<Record<string, { state: string; inc: string }>>(`
out = {}
for s in ${JSON.stringify(SEEDS.map(String))}:
    st = np.random.PCG64(int(s)).state['state']
    out[s] = {'state': '%x' % st['state'], 'inc': '%x' % st['inc']}
print(json.dumps(out))`);
    for (const seed of SEEDS) {
      const st = createPcg64(seed);
      expect(limbsHex(st.state), `state, seed ${seed}`).toBe(expected[String(seed)]?.state);
      expect(limbsHex(st.increment), `inc, seed ${seed}`).toBe(expected[String(seed)]?.inc);
    }
  });

  it(`first ${N_RAW} raw 64-bit outputs equal random_raw for several seeds`, () => {
    const expected = runNumpy<Record<string, string[]>>(`
print(json.dumps({s: ['%016x' % int(v) for v in np.random.PCG64(int(s)).random_raw(${N_RAW})]
                  for s in ${JSON.stringify(SEEDS.map(String))}}))`);
    const parts = new Uint32Array(2);
    for (const seed of SEEDS) {
      const st = createPcg64(seed);
      const got: string[] = [];
      for (let i = 0; i < N_RAW; i++) {
        nextUint64Parts(st, parts);
        got.push(hex64(parts[0] as number, parts[1] as number));
      }
      expect(got, `seed ${seed}`).toEqual(expected[String(seed)]);
    }
  });

  it("nextUint32 gives the low half first, then the high half (numpy next_uint32)", () => {
    const raw = createPcg64(7);
    const buffered = createPcg64(7);
    const parts = new Uint32Array(2);
    for (let i = 0; i < 50; i++) {
      nextUint64Parts(raw, parts);
      expect(nextUint32(buffered)).toBe(parts[1]);
      expect(nextUint32(buffered)).toBe(parts[0]);
    }
  });

  it("nextUint32 matches numpy's next_uint32 through ctypes, across a 64-bit draw", () => {
    const expected = runNumpy<{ u32: number[]; raw: string }>(`
bg = np.random.PCG64(12345)
f = bg.ctypes.next_uint32
u32 = [int(f(bg.ctypes.state)) for _ in range(5)]
raw = '%016x' % int(bg.ctypes.next_uint64(bg.ctypes.state))
u32 += [int(f(bg.ctypes.state)) for _ in range(3)]
print(json.dumps({'u32': u32, 'raw': raw}))`);
    const st = createPcg64(12345);
    const got = [0, 1, 2, 3, 4].map(() => nextUint32(st));
    const parts = new Uint32Array(2);
    // numpy's next64 neither uses nor clears the pending high half.
    nextUint64Parts(st, parts);
    got.push(nextUint32(st), nextUint32(st), nextUint32(st));
    expect(got).toEqual(expected.u32);
    expect(hex64(parts[0] as number, parts[1] as number)).toBe(expected.raw);
  });

  it("fillUint32 equals repeated nextUint32, for odd and even counts and a pending half", () => {
    const bulk = createPcg64(2 ** 32 + 7);
    const single = createPcg64(2 ** 32 + 7);
    for (const count of [1, 0, 3, 2, 4096, 7, 1, 1, 10]) {
      const out = new Uint32Array(count + 2);
      fillUint32(bulk, out, 1, count);
      const expected = [0, ...Array.from({ length: count }, () => nextUint32(single)), 0];
      expect(Array.from(out), `count ${count}`).toEqual(expected);
      expect(bulk.hasUint32).toBe(single.hasUint32);
      expect(Array.from(bulk.state)).toEqual(Array.from(single.state));
    }
  });

  it("rejects seed material of the wrong length", () => {
    expect(() => createPcg64FromSeedWords(new Uint32Array(4))).toThrow(RangeError);
  });
});
