/**
 * BM25 over chunks in memory (the memory files' index), with incremental add and remove; scored by
 * bm25.ts, as the knowledge stores are.
 */
import { type Bm25Params, DEFAULT_BM25, luceneIdf, termScore } from "./bm25.js";
import { type Scored, topSlots } from "./top-k.js";

export interface Bm25Json {
  params: Bm25Params;
  docs: Array<[number, Array<[string, number]>]>;
}


/** One term's postings: the slots holding it and its count there; entries of freed slots stay until a compaction. */
interface Postings {
  slots: Int32Array;
  tfs: Int32Array;
  length: number;
  /** Live slots holding the term: its document frequency. */
  live: number;
}

const emptyPostings = (capacity = 4): Postings => ({ slots: new Int32Array(capacity), tfs: new Int32Array(capacity), length: 0, live: 0 });

/** A growable Int32 array. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(Math.max(1024, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/**
 * Terms are numbered; postings are typed arrays over slots (a chunk's place in the index), and a
 * forward index (each slot's term numbers and counts) serves removal and storage. A query adds into
 * one array of scores by slot, then keeps the best with a bounded heap: at 50,000 chunks the
 * Map-based form spent 26 ms a query, mostly in Map updates and sorting every scored chunk, and
 * its JSON took seconds to load; the binary form loads as typed arrays.
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private termNames: string[] = [];
  private postings: Postings[] = [];
  private slotIds: number[] = [];
  private slotLength: number[] = [];
  private slotStart: number[] = [];
  private slotTerms: number[] = [];
  private forwardTerm = new IntList();
  private forwardTf = new IntList();
  private readonly slotOf = new Map<number, number>();
  private freed = 0;
  private totalLength = 0;

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {}

  get size(): number {
    return this.slotOf.size;
  }

  private termIdOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
      this.postings.push(emptyPostings());
    }
    return id;
  }

  add(id: number, terms: string[]): void {
    this.remove(id);
    const counts = new Map<number, number>();
    for (const term of terms) {
      const termId = this.termIdOf(term);
      counts.set(termId, (counts.get(termId) ?? 0) + 1);
    }
    const slot = this.slotIds.length;
    this.slotIds.push(id);
    this.slotLength.push(terms.length);
    this.slotStart.push(this.forwardTerm.length);
    this.slotTerms.push(counts.size);
    this.slotOf.set(id, slot);
    this.totalLength += terms.length;
    for (const [termId, tf] of counts) {
      this.forwardTerm.push(termId);
      this.forwardTf.push(tf);
      this.post(termId, slot, tf);
    }
  }

  private post(termId: number, slot: number, tf: number): void {
    const list = this.postings[termId];
    if (list.length === list.slots.length) {
      const slots = new Int32Array(Math.max(4, list.length * 2));
      slots.set(list.slots);
      const tfs = new Int32Array(slots.length);
      tfs.set(list.tfs);
      list.slots = slots;
      list.tfs = tfs;
    }
    list.slots[list.length] = slot;
    list.tfs[list.length++] = tf;
    list.live++;
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const start = this.slotStart[slot];
    for (let j = start; j < start + this.slotTerms[slot]; j++) this.postings[this.forwardTerm.data[j]].live--;
    this.totalLength -= this.slotLength[slot];
    this.slotOf.delete(id);
    this.slotIds[slot] = -1;
    if (++this.freed > Math.max(1024, this.slotOf.size)) this.compact();
  }

  /** Drops freed slots (their postings and forward entries) and numbers the live slots 0..n-1 again. */
  private compact(): void {
    const renumber = new Int32Array(this.slotIds.length).fill(-1);
    const ids: number[] = [];
    const lengths: number[] = [];
    const starts: number[] = [];
    const counts: number[] = [];
    const forwardTerm = new IntList();
    const forwardTf = new IntList();
    this.slotIds.forEach((id, slot) => {
      if (id < 0) return;
      renumber[slot] = ids.length;
      this.slotOf.set(id, ids.length);
      ids.push(id);
      lengths.push(this.slotLength[slot]);
      starts.push(forwardTerm.length);
      counts.push(this.slotTerms[slot]);
      for (let j = this.slotStart[slot]; j < this.slotStart[slot] + this.slotTerms[slot]; j++) {
        forwardTerm.push(this.forwardTerm.data[j]);
        forwardTf.push(this.forwardTf.data[j]);
      }
    });
    for (const list of this.postings) {
      let kept = 0;
      for (let j = 0; j < list.length; j++) {
        const to = renumber[list.slots[j]];
        if (to < 0) continue;
        list.slots[kept] = to;
        list.tfs[kept++] = list.tfs[j];
      }
      list.length = kept;
    }
    Object.assign(this, { slotIds: ids, slotLength: lengths, slotStart: starts, slotTerms: counts, forwardTerm, forwardTf, freed: 0 });
  }

  /** Document frequency of a term: how many chunks contain it. */
  df(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.postings[id].live;
  }

  /** Inverse document frequency, log(1 + (N - df + 0.5) / (df + 0.5)): rare terms weigh more. */
  idf(term: string): number {
    return luceneIdf(this.size, this.df(term));
  }

  search(queryTerms: string[], limit: number): Scored[] {
    const n = this.size;
    if (n === 0) return [];
    const avgLength = this.totalLength / n;
    const params = this.params;
    const scores = new Float64Array(this.slotIds.length);
    const lengths = this.slotLength;
    for (const term of new Set(queryTerms)) {
      const termId = this.termIds.get(term);
      if (termId === undefined || this.postings[termId].live === 0) continue;
      const list = this.postings[termId];
      const idf = this.idf(term);
      const { slots, tfs } = list;
      for (let j = 0; j < list.length; j++) {
        const slot = slots[j];
        scores[slot] += termScore(idf, tfs[j], lengths[slot], avgLength, params);
      }
    }
    return topSlots(scores, this.slotIds, this.slotIds.length, limit, true);
  }

  /** Each chunk's term counts (the JSON form, kept for indexes stored by earlier versions). */
  toJSON(): Bm25Json {
    const docs: Bm25Json["docs"] = [];
    this.slotIds.forEach((id, slot) => {
      if (id < 0) return;
      const counts: Array<[string, number]> = [];
      for (let j = this.slotStart[slot]; j < this.slotStart[slot] + this.slotTerms[slot]; j++) counts.push([this.termNames[this.forwardTerm.data[j]], this.forwardTf.data[j]]);
      docs.push([id, counts]);
    });
    return { params: this.params, docs };
  }

  static fromJSON(data: Bm25Json): Bm25Index {
    const index = new Bm25Index(data.params);
    for (const [id, counts] of data.docs) index.add(id, counts.flatMap(([term, tf]) => Array<string>(tf).fill(term)));
    return index;
  }

  /**
   * Binary form: a length-prefixed JSON header (params and counts), the terms as UTF-8 lines, then
   * Int32 words: each slot's chunk id, length and number of terms, then every slot's term numbers
   * and every slot's counts. Postings are rebuilt from that on load, in typed arrays.
   */
  toBuffer(): Buffer {
    if (this.freed > 0) this.compact();
    const slots = this.slotIds.length;
    const entries = this.forwardTerm.length;
    const dictionary = Buffer.from(this.termNames.join("\n"));
    const header = Buffer.from(JSON.stringify({ version: 1, params: this.params, terms: this.termNames.length, slots, entries, dictionary: dictionary.byteLength }));
    const pad = (n: number) => (4 - (n % 4)) % 4;
    const headBytes = 4 + header.byteLength + pad(header.byteLength);
    const dictBytes = dictionary.byteLength + pad(dictionary.byteLength);
    const out = Buffer.alloc(headBytes + dictBytes + (3 * slots + 2 * entries) * 4);
    out.writeUInt32LE(header.byteLength, 0);
    header.copy(out, 4);
    dictionary.copy(out, headBytes);
    const words = new Int32Array(out.buffer, out.byteOffset + headBytes + dictBytes, 3 * slots + 2 * entries);
    words.set(this.slotIds, 0);
    words.set(this.slotLength, slots);
    words.set(this.slotTerms, 2 * slots);
    words.set(this.forwardTerm.data.subarray(0, entries), 3 * slots);
    words.set(this.forwardTf.data.subarray(0, entries), 3 * slots + entries);
    return out;
  }

  static fromBuffer(buffer: Buffer): Bm25Index {
    const fail = (why: string): never => {
      throw new Error(`BM25 index file: ${why}`);
    };
    if (buffer.byteLength < 4) fail("too short");
    const headerLength = buffer.readUInt32LE(0);
    if (headerLength > 4096 || 4 + headerLength > buffer.byteLength) fail("header damaged");
    const header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as {
      version: number;
      params: Bm25Params;
      terms: number;
      slots: number;
      entries: number;
      dictionary: number;
    };
    if (header.version !== 1) fail(`unknown version ${header.version}`);
    const pad = (n: number) => (4 - (n % 4)) % 4;
    const headBytes = 4 + headerLength + pad(headerLength);
    const dictBytes = header.dictionary + pad(header.dictionary);
    const { slots, entries } = header;
    if (buffer.byteLength !== headBytes + dictBytes + (3 * slots + 2 * entries) * 4) fail("size does not match its header");
    const index = new Bm25Index(header.params);
    index.termNames = header.terms === 0 ? [] : buffer.subarray(headBytes, headBytes + header.dictionary).toString("utf8").split("\n");
    if (index.termNames.length !== header.terms) fail("dictionary does not match its header");
    index.termNames.forEach((term, id) => index.termIds.set(term, id));
    // Views into the file's bytes when they are 4-byte aligned (a file read whole is), else a copy.
    const wordsAt = buffer.byteOffset + headBytes + dictBytes;
    const aligned =
      wordsAt % 4 === 0
        ? new Int32Array(buffer.buffer, wordsAt, 3 * slots + 2 * entries)
        : new Int32Array(buffer.buffer.slice(wordsAt, buffer.byteOffset + buffer.byteLength));
    index.slotIds = [...aligned.subarray(0, slots)];
    index.slotLength = [...aligned.subarray(slots, 2 * slots)];
    index.slotTerms = [...aligned.subarray(2 * slots, 3 * slots)];
    const forwardTerm = aligned.subarray(3 * slots, 3 * slots + entries);
    const forwardTf = aligned.subarray(3 * slots + entries);
    // Postings as views into two arrays laid out term by term: count each term's slots, then fill.
    const start = new Int32Array(header.terms + 1);
    for (let j = 0; j < entries; j++) {
      const term = forwardTerm[j];
      if (term < 0 || term >= header.terms) fail("a term number out of range");
      start[term + 1]++;
    }
    for (let t = 0; t < header.terms; t++) start[t + 1] += start[t];
    const cursor = start.slice(0, header.terms);
    const postingSlots = new Int32Array(entries);
    const postingTfs = new Int32Array(entries);
    let at = 0;
    for (let slot = 0; slot < slots; slot++) {
      const id = index.slotIds[slot];
      if (id < 0 || index.slotOf.has(id)) fail("a chunk id twice or negative");
      index.slotOf.set(id, slot);
      index.slotStart.push(at);
      index.totalLength += index.slotLength[slot];
      const end = at + index.slotTerms[slot];
      if (end > entries) fail("term counts do not match the entries");
      for (let j = at; j < end; j++) {
        const place = cursor[forwardTerm[j]]++;
        postingSlots[place] = slot;
        postingTfs[place] = forwardTf[j];
      }
      at = end;
    }
    index.postings = Array.from({ length: header.terms }, (_, t) => {
      const n = start[t + 1] - start[t];
      // A view can be written in place until the list grows (then it is copied, see post()).
      return { slots: postingSlots.subarray(start[t], start[t + 1]), tfs: postingTfs.subarray(start[t], start[t + 1]), length: n, live: n };
    });
    if (at !== entries) fail("term counts do not match the entries");
    // Views too: the first push after a load copies them into a grown array.
    index.forwardTerm = Object.assign(new IntList(), { data: forwardTerm, length: entries });
    index.forwardTf = Object.assign(new IntList(), { data: forwardTf, length: entries });
    return index;
  }
}
