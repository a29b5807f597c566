/**
 * A zip archive unpacked by streaming, with real inflated bytes counted against caps as they come
 * (the sizes an archive declares can lie: a 1.5 MB Word file can unpack to 1.5 GB). An archive past
 * a cap stops there, having held what one small slice of input inflates to and the entries kept so
 * far. Input is pushed in slices, yielding between them, so a large archive never holds the event loop
 * for long.
 */
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { Unzip, UnzipInflate, type UnzipFile } from "fflate";

/**
 * Input pushed at a time. Deflate inflates up to ~1,000 times its input, and fflate hands what one
 * push inflates as one chunk: 16 kB in is at most ~16 MB out, held at once, before any cap is checked.
 */
const SLICE = 16 * 1024;

export interface UnzipCaps {
  /** Inflated bytes of every entry read (kept or counted), in all. */
  totalBytes: number;
  /** Entries read, at most. */
  files: number;
}

/** What to do with an entry: keep its bytes, only count them, skip it, or refuse the archive for it. */
export type EntryChoice = "keep" | "count" | "skip" | { refuse: string };

export type UnzipProblem =
  | { kind: "too-large"; message: string }
  | { kind: "too-many"; message: string }
  | { kind: "refused"; entry: string; message: string }
  | { kind: "method"; entry: string; message: string }
  | { kind: "damaged"; message: string };

export type Unzipped = { ok: true; files: Map<string, Uint8Array>; totalBytes: number } | { ok: false; problem: UnzipProblem };

export async function unzipCapped(bytes: Uint8Array, choose: (name: string) => EntryChoice, caps: UnzipCaps): Promise<Unzipped> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  let entries = 0;
  let problem: UnzipProblem | null = null;
  const fail = (p: UnzipProblem) => {
    problem ??= p;
  };
  const unzip = new Unzip((file: UnzipFile) => {
    if (problem || file.name.endsWith("/")) return;
    const choice = choose(file.name);
    if (choice === "skip") return;
    if (typeof choice === "object") return fail({ kind: "refused", entry: file.name, message: choice.refuse });
    if (++entries > caps.files) return fail({ kind: "too-many", message: `it holds more than ${caps.files} files` });
    if (file.compression !== 0 && file.compression !== 8) return fail({ kind: "method", entry: file.name, message: `"${file.name.slice(0, 200)}" uses a compression method that cannot be read (${file.compression})` });
    const chunks: Uint8Array[] = [];
    file.ondata = (err, chunk, final) => {
      if (problem) return;
      if (err) return fail({ kind: "damaged", message: `it is damaged at "${file.name.slice(0, 200)}": ${err.message}` });
      total += chunk.length;
      if (total > caps.totalBytes) {
        file.terminate();
        return fail({ kind: "too-large", message: `it unpacks to more than ${Math.round(caps.totalBytes / 1024 / 1024)} MB` });
      }
      if (choice === "keep") chunks.push(chunk);
      if (final && choice === "keep") files.set(file.name, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && !problem; offset += SLICE) {
      unzip.push(bytes.subarray(offset, offset + SLICE), offset + SLICE >= bytes.length);
      await yieldToLoop();
    }
  } catch (err) {
    fail({ kind: "damaged", message: `it is not a zip archive that can be read (${(err as Error).message})` });
  }
  return problem ? { ok: false, problem } : { ok: true, files, totalBytes: total };
}
