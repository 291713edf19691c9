/**
 * A minimal WebAssembly 1.0 encoder (the binary format, §5 of the core specification): enough
 * to assemble small numeric kernels from their instructions in TypeScript, so the project ships
 * no binary artefact and needs no toolchain. Functions take named parameters and locals.
 */

export type ValueType = "i32" | "i64" | "f64";
const TYPE_CODE: Record<ValueType, number> = { i32: 0x7f, i64: 0x7e, f64: 0x7c };

export function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

export function signedLeb(value: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asIntN(64, value);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const vec = (items: readonly number[][]): number[] => [
  ...unsignedLeb(items.length),
  ...items.flat(),
];
const section = (id: number, body: number[]): number[] => [
  id,
  ...unsignedLeb(body.length),
  ...body,
];
const name = (text: string): number[] => vec([...text].map((c) => [c.charCodeAt(0)]));

/** Opcodes used by the kernels. */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  i32Load: 0x28,
  i64Load: 0x29,
  f64Load: 0x2b,
  i32Load8U: 0x2d,
  i32Store: 0x36,
  i64Store: 0x37,
  f64Store: 0x39,
  i32Store8: 0x3a,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i64LtU: 0x54,
  f64Eq: 0x61,
  f64Ne: 0x62,
  f64Lt: 0x63,
  f64Gt: 0x64,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Shl: 0x74,
  i64Add: 0x7c,
  i64Mul: 0x7e,
  i64And: 0x83,
  i64Xor: 0x85,
  i64ShrU: 0x88,
  i64Rotr: 0x8a,
  f64Sqrt: 0x9f,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64Mul: 0xa2,
  f64Div: 0xa3,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  f64ConvertI32S: 0xb7,
} as const;
/** Block type of a block, loop or if that leaves nothing on the stack. */
export const VOID = 0x40;

export const i32Const = (v: number): number[] => [0x41, ...signedLeb(BigInt(v | 0))];
export const i64Const = (v: bigint): number[] => [0x42, ...signedLeb(v)];
export const f64Const = (v: number): number[] => {
  const bytes = new DataView(new ArrayBuffer(8));
  bytes.setFloat64(0, v, true); // the binary format is little-endian
  return [0x44, ...new Uint8Array(bytes.buffer)];
};
/** Load or store with the natural alignment (2^align bytes) and a static offset. */
export const memory = (opcode: number, align: number, offset = 0): number[] => [
  opcode,
  align,
  ...unsignedLeb(offset),
];

/** A function under construction: named parameters, then named locals, then its body. */
export class FunctionBuilder {
  private readonly index = new Map<string, number>();
  private readonly localTypes: ValueType[] = [];

  constructor(
    readonly exportName: string,
    readonly params: readonly (readonly [string, ValueType])[],
    readonly result: ValueType | null,
  ) {
    for (const [i, [n]] of params.entries()) this.index.set(n, i);
  }

  /** Declares locals (all zero at entry). */
  locals(type: ValueType, ...names: string[]): this {
    for (const n of names) {
      this.index.set(n, this.params.length + this.localTypes.length);
      this.localTypes.push(type);
    }
    return this;
  }

  get = (n: string): number[] => [0x20, this.at(n)];
  set = (n: string): number[] => [0x21, this.at(n)];
  /** Sets the local and leaves its value on the stack. */
  tee = (n: string): number[] => [0x22, this.at(n)];

  private at(n: string): number {
    const i = this.index.get(n);
    if (i === undefined) throw new Error(`wasm: unknown local ${n}`);
    return i;
  }

  encodeType(): number[] {
    return [
      0x60,
      ...vec(this.params.map(([, t]) => [TYPE_CODE[t]])),
      ...vec(this.result ? [[TYPE_CODE[this.result]]] : []),
    ];
  }

  encodeCode(body: readonly number[]): number[] {
    const runs: number[][] = [];
    for (const t of this.localTypes) {
      const last = runs[runs.length - 1];
      if (last && last[1] === TYPE_CODE[t]) last[0] = (last[0] as number) + 1;
      else runs.push([1, TYPE_CODE[t]]);
    }
    const code = [
      ...vec(runs.map(([count, type]) => [...unsignedLeb(count as number), type as number])),
      ...body,
      op.end,
    ];
    return [...unsignedLeb(code.length), ...code];
  }
}

/** A module of the given functions (one type each) and one exported memory of `pages` pages. */
export function assembleModule(
  functions: readonly { readonly fn: FunctionBuilder; readonly body: readonly number[] }[],
  pages: number,
): Uint8Array {
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec(functions.map(({ fn }) => fn.encodeType()))),
    ...section(3, vec(functions.map((_, i) => unsignedLeb(i)))),
    ...section(5, vec([[0x00, ...unsignedLeb(pages)]])),
    ...section(
      7,
      vec([
        [...name("memory"), 0x02, 0],
        ...functions.map(({ fn }, i) => [...name(fn.exportName), 0x00, ...unsignedLeb(i)]),
      ]),
    ),
    ...section(10, vec(functions.map(({ fn, body }) => fn.encodeCode(body)))),
  ]);
}
