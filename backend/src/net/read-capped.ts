/**
 * A response body read up to a cap: what came before the cap, and whether there was more (the rest
 * is not read: the stream is cancelled). A body still arriving when its request's signal aborts
 * rejects, as the fetch's own reading does.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!body) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      cut = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, cut };
}
