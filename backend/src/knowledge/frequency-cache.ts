/**
 * How many chunks hold each term, remembered until the store has grown or shrunk by a twentieth:
 * counting a common term's rows is slow (FTS5 reads its whole list; PostgreSQL counts its postings),
 * and the counts only weigh and sort terms, where that drift does not matter.
 */
export class FrequencyCache {
  private readonly counts = new Map<string, { df: number; at: number }>();

  /** The counts still good at `chunks` chunks, and the terms to count again. */
  lookup(terms: string[], chunks: number): { found: Map<string, number>; stale: string[] } {
    const found = new Map<string, number>();
    const stale = terms.filter((t) => {
      const known = this.counts.get(t);
      if (known && Math.abs(known.at - chunks) <= chunks / 20) found.set(t, known.df);
      return !found.has(t);
    });
    return { found, stale };
  }

  /** Counts made for the stale terms (a term not counted is in no chunk), added to `found`. */
  remember(stale: string[], counted: Map<string, number>, chunks: number, found: Map<string, number>): Map<string, number> {
    if (this.counts.size > 50_000) this.counts.clear();
    for (const t of stale) {
      found.set(t, counted.get(t) ?? 0);
      this.counts.set(t, { df: counted.get(t) ?? 0, at: chunks });
    }
    return found;
  }

  clear(): void {
    this.counts.clear();
  }
}
