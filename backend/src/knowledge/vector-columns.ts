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
const VERSION = 2;

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
   * Binary form: Int32 words (a version, dims, slots, the slots' chunk ids, each column's entry
   * count and the byte length of its slot stream), every column's values as Float32, then every
   * column's slots as deltas in LEB128 bytes (slots ascend within a column, about 4 apart: one byte
   * each instead of four, so the file reads in a third of the time).
   */
  toBuffer(): Buffer {
    if (this.freed > 0) this.compact();
    const { dims } = this;
    const slots = this.slotIds.length;
    const entries = this.colLength.reduce((a, b) => a + b, 0);
    const deltas = Buffer.alloc(entries * 5);
    const streamBytes = new Int32Array(dims);
    let at = 0;
    for (let d = 0; d < dims; d++) {
      const from = at;
      let previous = -1;
      const column = this.colSlots[d];
      for (let j = 0; j < this.colLength[d]; j++) {
        let delta = column[j] - previous - 1;
        previous = column[j];
        while (delta >= 0x80) {
          deltas[at++] = (delta & 0x7f) | 0x80;
          delta >>>= 7;
        }
        deltas[at++] = delta;
      }
      streamBytes[d] = at - from;
    }
    const headerWords = 3 + slots + 2 * dims;
    const out = Buffer.alloc((headerWords + entries) * 4 + at);
    const words = new Int32Array(out.buffer, out.byteOffset, headerWords);
    words.set([VERSION, dims, slots]);
    words.set(this.slotIds, 3);
    words.set(this.colLength, 3 + slots);
    words.set(streamBytes, 3 + slots + dims);
    const values = new Float32Array(out.buffer, out.byteOffset + headerWords * 4, entries);
    for (let d = 0, valueAt = 0; d < dims; d++) {
      values.set(this.colValues[d].subarray(0, this.colLength[d]), valueAt);
      valueAt += this.colLength[d];
    }
    deltas.copy(out, (headerWords + entries) * 4, 0, at);
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
    if (buffer.byteLength < 12) fail("is too short");
    const aligned = buffer.byteOffset % 4 === 0 ? buffer : Buffer.from(buffer);
    const head = new Int32Array(aligned.buffer, aligned.byteOffset, 3);
    const [version, dims, slots] = head;
    if (version !== VERSION) fail(`has an unknown version ${version}`);
    const headerWords = 3 + slots + 2 * dims;
    if (!(dims > 0 && dims <= 65_536 && slots >= 0 && headerWords * 4 <= aligned.byteLength)) fail("header is damaged");
    const words = new Int32Array(aligned.buffer, aligned.byteOffset, headerWords);
    const lengths = words.subarray(3 + slots, 3 + slots + dims);
    const streamBytes = words.subarray(3 + slots + dims, headerWords);
    let entries = 0;
    let stream = 0;
    for (let d = 0; d < dims; d++) {
      if (lengths[d] < 0 || streamBytes[d] < lengths[d]) fail("does not match its header");
      entries += lengths[d];
      stream += streamBytes[d];
    }
    if (aligned.byteLength !== (headerWords + entries) * 4 + stream) fail("does not match its header");
    const columns = new VectorColumns(dims);
    columns.slotIds = [...words.subarray(3, 3 + slots)];
    columns.slotIds.forEach((id, slot) => {
      if (id < 0 || columns.slotOf.has(id)) fail("has a chunk id twice or negative");
      columns.slotOf.set(id, slot);
    });
    // The values stay a view into the file's bytes; a column is copied when it grows.
    const values = new Float32Array(aligned.buffer, aligned.byteOffset + headerWords * 4, entries);
    const allSlots = new Int32Array(entries);
    let byte = (headerWords + entries) * 4;
    for (let d = 0, at = 0; d < dims; d++) {
      const n = lengths[d];
      const streamEnd = byte + streamBytes[d];
      let previous = -1;
      for (let j = at; j < at + n; j++) {
        let delta = 0;
        let shift = 0;
        let b: number;
        do {
          if (byte >= streamEnd) fail("has a column cut short");
          b = aligned[byte++];
          delta |= (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80 && shift < 35);
        previous += delta + 1;
        if (previous >= slots) fail("names a slot it does not have");
        allSlots[j] = previous;
      }
      if (byte !== streamEnd) fail("has a column of the wrong length");
      columns.colSlots[d] = allSlots.subarray(at, at + n);
      columns.colValues[d] = values.subarray(at, at + n);
      columns.colLength[d] = n;
      at += n;
    }
    return columns;
  }
}
