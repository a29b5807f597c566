import type { Scored } from "./bm25-index.js";

/**
 * Unit vectors by chunk id, searched by brute-force cosine (a dot product). Kept in one
 * Float32Array so search touches contiguous memory and storage is a raw binary file that
 * loads in milliseconds (the JSON vector store spends most of its time parsing numbers).
 */
export class VectorRows {
  private data: Float32Array;
  private ids: number[] = [];
  private readonly rowOf = new Map<number, number>();

  constructor(
    readonly dims: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(dims * capacity);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: number): boolean {
    return this.rowOf.has(id);
  }

  set(id: number, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, expected ${this.dims}`);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dims > this.data.length) {
        const grown = new Float32Array(Math.max(this.data.length * 2, (row + 1) * this.dims));
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.rowOf.set(id, row);
    }
    this.data.set(vector, row * this.dims);
  }

  /** Removes a row by moving the last row into its place. */
  remove(id: number): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      const movedId = this.ids[last];
      this.ids[row] = movedId;
      this.rowOf.set(movedId, row);
    }
    this.ids.pop();
    this.rowOf.delete(id);
  }

  search(query: Float32Array, limit: number): Scored[] {
    const { dims, data } = this;
    // Only the query's non-zero dimensions contribute: a hashed query vector has a few hundred.
    const nonZero: number[] = [];
    for (let i = 0; i < dims; i++) if (query[i] !== 0) nonZero.push(i);
    const at = Int32Array.from(nonZero);
    const weight = Float32Array.from(nonZero, (i) => query[i]);
    const best: Scored[] = [];
    let floor = -Infinity;
    for (let row = 0; row < this.ids.length; row++) {
      let dot = 0;
      const base = row * dims;
      for (let j = 0; j < at.length; j++) dot += data[base + at[j]] * weight[j];
      if (best.length < limit || dot > floor) {
        best.push({ id: this.ids[row], score: dot });
        if (best.length > limit * 2) {
          best.sort((a, b) => b.score - a.score);
          best.length = limit;
          floor = best[limit - 1].score;
        }
      }
    }
    return best.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
  }

  *entries(): Generator<[number, Float32Array]> {
    for (let row = 0; row < this.ids.length; row++) yield [this.ids[row], this.data.subarray(row * this.dims, (row + 1) * this.dims)];
  }

  /** Binary form: ids as Int32, then the rows as Float32. */
  toBuffers(): { ids: Buffer; vectors: Buffer } {
    const ids = Buffer.from(new Int32Array(this.ids).buffer);
    const vectors = Buffer.from(this.data.buffer, this.data.byteOffset, this.ids.length * this.dims * 4);
    return { ids, vectors };
  }

  static fromBuffers(dims: number, ids: Buffer, vectors: Buffer): VectorRows {
    const idArray = new Int32Array(ids.buffer.slice(ids.byteOffset, ids.byteOffset + ids.byteLength));
    if (vectors.byteLength !== idArray.length * dims * 4) throw new Error("vector file does not match its ids");
    const rows = new VectorRows(dims, Math.max(1, idArray.length));
    rows.data.set(new Float32Array(vectors.buffer.slice(vectors.byteOffset, vectors.byteOffset + vectors.byteLength)));
    rows.ids = [...idArray];
    rows.ids.forEach((id, row) => rows.rowOf.set(id, row));
    return rows;
  }
}
