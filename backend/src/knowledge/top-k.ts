/** An id with its score (a chunk, a term's posting). */
export interface Scored {
  id: number;
  score: number;
}

/**
 * The `limit` best scores of an index's slots, as chunk ids, best first (ties: the lower id first).
 * A slot whose id is negative is free (its chunk was removed); with `positiveOnly`, slots that
 * scored nothing are passed over. A bounded min-heap: one comparison per slot, no sort of them all.
 */
export function topSlots(scores: ArrayLike<number>, ids: ArrayLike<number>, slots: number, limit: number, positiveOnly: boolean): Scored[] {
  const heapScore = new Float64Array(limit);
  const heapId = new Float64Array(limit);
  let size = 0;
  // "a is worse than b": the heap's root is the worst kept.
  const worse = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);
  const siftDown = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && worse(heapScore[right], heapId[right], heapScore[left], heapId[left]) ? right : left;
      if (!worse(heapScore[child], heapId[child], heapScore[at], heapId[at])) return;
      [heapScore[at], heapScore[child]] = [heapScore[child], heapScore[at]];
      [heapId[at], heapId[child]] = [heapId[child], heapId[at]];
      at = child;
    }
  };
  for (let slot = 0; slot < slots; slot++) {
    const id = ids[slot];
    if (id < 0) continue;
    const score = scores[slot];
    if (positiveOnly && !(score > 0)) continue;
    if (size < limit) {
      let at = size++;
      heapScore[at] = score;
      heapId[at] = id;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(heapScore[at], heapId[at], heapScore[parent], heapId[parent])) break;
        [heapScore[at], heapScore[parent]] = [heapScore[parent], heapScore[at]];
        [heapId[at], heapId[parent]] = [heapId[parent], heapId[at]];
        at = parent;
      }
    } else if (limit > 0 && worse(heapScore[0], heapId[0], score, id)) {
      heapScore[0] = score;
      heapId[0] = id;
      siftDown(0);
    }
  }
  const out: Scored[] = [];
  for (let i = 0; i < size; i++) out.push({ id: heapId[i], score: heapScore[i] });
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The `limit` best of scores kept by id, best first (ties: the lower id first). */
export function topScored(scores: Map<number, number>, limit: number): Scored[] {
  const ids = Float64Array.from(scores.keys());
  const values = Float64Array.from(scores.values());
  return topSlots(values, ids, ids.length, limit, false);
}
