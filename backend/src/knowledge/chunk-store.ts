/** One indexed piece of a document. */
export interface StoredChunk {
  id: number;
  /** Data-root-relative, e.g. `knowledge/notes/a.md`. */
  path: string;
  index: number;
  line: number;
  text: string;
}

interface Entry {
  path: string;
  index: number;
  line: number;
  /** The text, or null while it is still bytes of the loaded file (`start`..`end`). */
  text: string | null;
  start: number;
  end: number;
}

const VERSION = 1;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The chunks by id. A stored index loads as one buffer: the numbers as Int32 words and the texts
 * as UTF-8 bytes, decoded only when a chunk is read (a search's results, a re-embedding). At 68,000
 * chunks the JSON form took a second to decode and parse; most texts are never read after a load.
 */
export class ChunkStore {
  private readonly entries = new Map<number, Entry>();
  private blob: Buffer = Buffer.alloc(0);

  get size(): number {
    return this.entries.size;
  }

  has(id: number): boolean {
    return this.entries.has(id);
  }

  get(id: number): StoredChunk | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const text = entry.text ?? this.blob.toString("utf8", entry.start, entry.end);
    return { id, path: entry.path, index: entry.index, line: entry.line, text };
  }

  set(chunk: StoredChunk): void {
    this.entries.set(chunk.id, { path: chunk.path, index: chunk.index, line: chunk.line, text: chunk.text, start: 0, end: 0 });
  }

  delete(id: number): void {
    this.entries.delete(id);
  }

  ids(): IterableIterator<number> {
    return this.entries.keys();
  }

  /**
   * Binary form: a length-prefixed JSON header (version, count, the paths), Int32 words per chunk
   * (id, path number, index, line, byte length of its text), then the texts as UTF-8. Made a slice
   * at a time with the event loop let in between.
   */
  async toBuffer(slice = 2000): Promise<Buffer> {
    const pathNumber = new Map<string, number>();
    const count = this.entries.size;
    const words = new Int32Array(count * 5);
    const texts: Buffer[] = [];
    let i = 0;
    for (const [id, entry] of this.entries) {
      let number = pathNumber.get(entry.path);
      if (number === undefined) pathNumber.set(entry.path, (number = pathNumber.size));
      const bytes = entry.text === null ? this.blob.subarray(entry.start, entry.end) : Buffer.from(entry.text);
      words.set([id, number, entry.index, entry.line, bytes.byteLength], i * 5);
      texts.push(bytes);
      if (++i % slice === 0) await yieldToEventLoop();
    }
    const header = Buffer.from(JSON.stringify({ version: VERSION, count, paths: [...pathNumber.keys()] }));
    const pad = Buffer.alloc((4 - ((4 + header.byteLength) % 4)) % 4);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.byteLength);
    return Buffer.concat([length, header, pad, Buffer.from(words.buffer), ...texts]);
  }

  static fromBuffer(buffer: Buffer): ChunkStore {
    const fail = (why: string): never => {
      throw new Error(`chunk file ${why}`);
    };
    if (buffer.byteLength < 4) fail("is too short");
    const headerLength = buffer.readUInt32LE(0);
    if (4 + headerLength > buffer.byteLength) fail("header is damaged");
    const header = JSON.parse(buffer.toString("utf8", 4, 4 + headerLength)) as { version: number; count: number; paths: string[] };
    if (header.version !== VERSION) fail(`has an unknown version ${header.version}`);
    const wordsAt = 4 + headerLength + ((4 - ((4 + headerLength) % 4)) % 4);
    const blobAt = wordsAt + header.count * 20;
    if (blobAt > buffer.byteLength) fail("does not match its header");
    const aligned = buffer.byteOffset % 4 === 0 ? buffer : Buffer.from(buffer);
    const words = new Int32Array(aligned.buffer, aligned.byteOffset + wordsAt, header.count * 5);
    const store = new ChunkStore();
    store.blob = aligned.subarray(blobAt);
    let at = 0;
    for (let i = 0; i < header.count; i++) {
      const [id, number, index, line, bytes] = words.subarray(i * 5, i * 5 + 5);
      const path = header.paths[number];
      if (path === undefined || bytes < 0 || at + bytes > store.blob.byteLength || store.entries.has(id)) fail("is damaged");
      store.entries.set(id, { path, index, line, text: null, start: at, end: at + bytes });
      at += bytes;
    }
    if (at !== store.blob.byteLength) fail("does not match its header");
    return store;
  }
}
