import type { Scored } from "./bm25-index.js";
import { topSlots } from "./top-k.js";
import type { VectorRows } from "./vector-rows.js";

/**
 * Sparse unit vectors by chunk id, stored by dimension (an inverted index over dimensions): each
 * dimension lists the slots that have a value there. The offline embedder's vectors hold about
 * 500 non-zero values of 2,048 and its queries about 60, so a search reads only the query's
 * columns, instead of every row at scattered offsets (57 ms at 50,000 chunks as dense rows), and
 * memory holds the non-zero values only (about 40% of the dense rows).
 *
 * A removed chunk's slot is freed (its id set to -1) and its entries stay until a compaction,
 * which runs once freed slots outnumber the live ones; it renumbers the slots too.
 */
/** The binary form's version, checked on load. */
const VERSION = 3;

export class VectorColumns {
  private slotIds: number[] = [];
  private readonly slotOf = new Map<number, number>();
  private colSlots: Int32Array[];
  private colValues: Float32Array[];
  private colLength: Int32Array;
  private freed = 0;

  constructor(readonly dims: number) {
    this.colSlots = Array.from({ length: dims }, () => new Int32Array(0));
    this.colValues = Array.from({ length: dims }, () => new Float32Array(0));
    this.colLength = new Int32Array(dims);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  set(id: number, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, expected ${this.dims}`);
    this.remove(id);
    const slot = this.slotIds.length;
    this.slotIds.push(id);
    this.slotOf.set(id, slot);
    for (let d = 0; d < this.dims; d++) if (vector[d] !== 0) this.append(d, slot, vector[d]);
  }

  private append(d: number, slot: number, value: number): void {
    const length = this.colLength[d];
    if (length === this.colSlots[d].length) {
      const capacity = Math.max(16, length * 2);
      const slots = new Int32Array(capacity);
      slots.set(this.colSlots[d].subarray(0, length));
      const values = new Float32Array(capacity);
      values.set(this.colValues[d].subarray(0, length));
      this.colSlots[d] = slots;
      this.colValues[d] = values;
    }
    this.colSlots[d][length] = slot;
    this.colValues[d][length] = value;
    this.colLength[d] = length + 1;
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotIds[slot] = -1;
    this.slotOf.delete(id);
    this.freed++;
    if (this.freed > Math.max(1024, this.slotOf.size)) this.compact();
  }

  /** Drops freed slots' entries and numbers the live slots 0..n-1 again. */
  private compact(): void {
    const renumber = new Int32Array(this.slotIds.length).fill(-1);
    const ids: number[] = [];
    this.slotIds.forEach((id, slot) => {
      if (id < 0) return;
      renumber[slot] = ids.length;
      this.slotOf.set(id, ids.length);
      ids.push(id);
    });
    for (let d = 0; d < this.dims; d++) {
      const slots = this.colSlots[d];
      const values = this.colValues[d];
      let kept = 0;
      for (let j = 0; j < this.colLength[d]; j++) {
        const to = renumber[slots[j]];
        if (to < 0) continue;
        slots[kept] = to;
        values[kept++] = values[j];
      }
      this.colLength[d] = kept;
    }
    this.slotIds = ids;
    this.freed = 0;
  }

  search(query: Float32Array, limit: number): Scored[] {
    const scores = new Float32Array(this.slotIds.length);
    for (let d = 0; d < this.dims; d++) {
      const weight = query[d];
      if (weight === 0) continue;
      const slots = this.colSlots[d];
      const values = this.colValues[d];
      for (let j = 0, n = this.colLength[d]; j < n; j++) scores[slots[j]] += values[j] * weight;
    }
    return topSlots(scores, this.slotIds, this.slotIds.length, limit, false);
  }

  /**
   * Binary form, Int32 words: a version, dims, slots, the slots' chunk ids, each column's entry
   * count, every column's slots, then every column's values as Float32. Loading makes views into
   * the file's bytes: no decoding (LEB128-packed slots read a third faster but took longer to decode).
   */
  toBuffer(): Buffer {
    if (this.freed > 0) this.compact();
    const { dims } = this;
    const slots = this.slotIds.length;
    const entries = this.colLength.reduce((a, b) => a + b, 0);
    const headerWords = 3 + slots + dims;
    const out = Buffer.alloc((headerWords + 2 * entries) * 4);
    const words = new Int32Array(out.buffer, out.byteOffset, headerWords + entries);
    words.set([VERSION, dims, slots]);
    words.set(this.slotIds, 3);
    words.set(this.colLength, 3 + slots);
    const values = new Float32Array(out.buffer, out.byteOffset + (headerWords + entries) * 4, entries);
    for (let d = 0, at = 0; d < dims; d++) {
      const n = this.colLength[d];
      words.set(this.colSlots[d].subarray(0, n), headerWords + at);
      values.set(this.colValues[d].subarray(0, n), at);
      at += n;
    }
    return out;
  }

  /** The same vectors, from dense rows (an index stored before columns existed). */
  static fromRows(rows: VectorRows): VectorColumns {
    const columns = new VectorColumns(rows.dims);
    for (const [id, vector] of rows.entries()) columns.set(id, vector);
    return columns;
  }

  static fromBuffer(buffer: Buffer): VectorColumns {
    const fail = (why: string): never => {
      throw new Error(`vector file ${why}`);
    };
    if (buffer.byteLength < 12 || buffer.byteLength % 4 !== 0) fail("is not whole words");
    const aligned = buffer.byteOffset % 4 === 0 ? buffer : Buffer.from(buffer);
    const all = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
    const [version, dims, slots] = all;
    if (version !== VERSION) fail(`has an unknown version ${version}`);
    const headerWords = 3 + slots + dims;
    if (!(dims > 0 && dims <= 65_536 && slots >= 0 && headerWords <= all.length)) fail("header is damaged");
    const lengths = all.subarray(3 + slots, headerWords);
    let entries = 0;
    for (let d = 0; d < dims; d++) {
      if (lengths[d] < 0) fail("does not match its header");
      entries += lengths[d];
    }
    if (all.length !== headerWords + 2 * entries) fail("does not match its header");
    const columns = new VectorColumns(dims);
    columns.slotIds = [...all.subarray(3, 3 + slots)];
    columns.slotIds.forEach((id, slot) => {
      if (id < 0 || columns.slotOf.has(id)) fail("has a chunk id twice or negative");
      columns.slotOf.set(id, slot);
    });
    const allSlots = all.subarray(headerWords, headerWords + entries);
    // Unsigned compare: one test catches negative slots and slots past the end.
    for (let j = 0; j < entries; j++) if (allSlots[j] >>> 0 >= slots) fail("names a slot it does not have");
    const values = new Float32Array(aligned.buffer, aligned.byteOffset + (headerWords + entries) * 4, entries);
    for (let d = 0, at = 0; d < dims; d++) {
      const n = lengths[d];
      columns.colSlots[d] = allSlots.subarray(at, at + n);
      columns.colValues[d] = values.subarray(at, at + n);
      columns.colLength[d] = n;
      at += n;
    }
    return columns;
  }
}
