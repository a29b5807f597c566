/**
 * Vectors as stored in the knowledge database. The offline embedder's vectors have about 500
 * non-zero values of 2,048: kept sparse, each value quantized to a signed byte against the vector's
 * largest magnitude (1.5 KB a chunk instead of 8 KB dense; the rounding moves a cosine by well under
 * 1%). An endpoint's dense vectors are kept as float32 rows.
 *
 * Sparse layout: float32 scale, then n uint16 dimensions, then n int8 values (n from the length).
 */
export type VectorFormat = "sparse-i8" | "f32";

export function encodeVector(vector: Float32Array, format: VectorFormat): Buffer {
  if (format === "f32") return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  let n = 0;
  let max = 0;
  for (let d = 0; d < vector.length; d++) {
    if (vector[d] === 0) continue;
    n++;
    max = Math.max(max, Math.abs(vector[d]));
  }
  const out = Buffer.alloc(4 + 3 * n);
  const scale = max / 127 || 1;
  out.writeFloatLE(scale, 0);
  let i = 0;
  for (let d = 0; d < vector.length; d++) {
    if (vector[d] === 0) continue;
    out.writeUInt16LE(d, 4 + 2 * i);
    out.writeInt8(Math.max(-127, Math.min(127, Math.round(vector[d] / scale))), 4 + 2 * n + i);
    i++;
  }
  return out;
}

/** The dot product of a stored vector with a dense query vector. */
export function dotStored(stored: Uint8Array, format: VectorFormat, query: Float32Array): number {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  let sum = 0;
  if (format === "f32") {
    const n = Math.min(query.length, stored.byteLength >> 2);
    for (let d = 0; d < n; d++) sum += view.getFloat32(d * 4, true) * query[d];
    return sum;
  }
  const n = (stored.byteLength - 4) / 3;
  const scale = view.getFloat32(0, true);
  const valuesAt = 4 + 2 * n;
  for (let i = 0; i < n; i++) {
    const d = view.getUint16(4 + 2 * i, true);
    if (d < query.length) sum += view.getInt8(valuesAt + i) * query[d];
  }
  return sum * scale;
}

/** A stored vector back as a dense one of `dimensions` values (a sparse one's dropped values are zero). */
export function decodeVector(stored: Uint8Array, format: VectorFormat, dimensions: number): Float32Array {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const out = new Float32Array(format === "f32" ? stored.byteLength >> 2 : dimensions);
  if (format === "f32") {
    for (let d = 0; d < out.length; d++) out[d] = view.getFloat32(d * 4, true);
    return out;
  }
  const n = (stored.byteLength - 4) / 3;
  const scale = view.getFloat32(0, true);
  for (let i = 0; i < n; i++) {
    const d = view.getUint16(4 + 2 * i, true);
    if (d < dimensions) out[d] = view.getInt8(4 + 2 * n + i) * scale;
  }
  return out;
}
