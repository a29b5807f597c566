/**
 * A server's message over a megabyte is read off the server's thread (large-message-thread.ts) and
 * made small there before it comes back: what the workbench would cut anyway is cut before the
 * server's thread ever holds it. A tool schema over the size a tool may have is replaced by a note of
 * its size (the tool is then left out for it); a string over a megabyte (a huge tool result) keeps
 * its first megabyte, and the characters left out are counted in the result's `_meta`, so the
 * marker the model reads still says how large the result was.
 */
import { JobWorker } from "../workers/job-worker.js";

/** Lines up to this are parsed where they arrive; larger ones in the worker. */
export const LARGE_MESSAGE_BYTES = 1024 * 1024;
/** A string in a large message keeps at most this many characters. */
export const LARGE_STRING_CHARS = 1_000_000;
/** The key of a schema replaced by its size. */
export const SCHEMA_TOO_LARGE = "x-mini-openclaw-schema-chars";
/** In a result's `_meta`: characters left out of its strings. */
export const OMITTED_CHARS = "mini-openclaw/omitted-chars";
const READ_DEADLINE_MS = 20_000;

export type LargeMessageJob = { bytes: Uint8Array; maxSchemaChars: number };
export type LargeMessageReply = { json: unknown } | { notJson: string };

export class LargeMessageReader {
  private readonly jobs = new JobWorker<LargeMessageJob, LargeMessageReply>({ module: "./large-message-thread", base: import.meta.url, name: "the MCP message reader", resourceLimits: { maxOldGenerationSizeMb: 1024 } });

  constructor(private readonly maxSchemaChars: number) {}

  /** The message, parsed and reduced; or the reason it is not one. */
  async read(line: Buffer): Promise<LargeMessageReply | { failed: string }> {
    // The line's own memory is handed over, not copied (it is not used here again).
    const owned = line.byteOffset === 0 && line.byteLength === line.buffer.byteLength ? line : Buffer.from(line);
    const outcome = await this.jobs.run({ bytes: owned, maxSchemaChars: this.maxSchemaChars }, READ_DEADLINE_MS, [owned.buffer as ArrayBuffer]);
    return outcome.ok ? outcome.reply : { failed: outcome.reason };
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
