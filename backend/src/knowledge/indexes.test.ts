import { describe, expect, it } from "vitest";
import { DEFAULT_BM25 } from "./bm25.js";
import { Bm25Index } from "./bm25-index.js";
import { fuseScores } from "./fusion.js";
import { textTerms } from "./text-terms.js";

/** A deterministic stream of words from a small vocabulary, so documents share terms. */
function randomDocs(count: number, seed = 7): string[] {
  const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`);
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0), state / 2 ** 32);
  return Array.from({ length: count }, () => Array.from({ length: 5 + Math.floor(next() * 40) }, () => vocabulary[Math.floor(next() ** 2 * 300)]).join(" "));
}

/** Okapi BM25 written out plainly over the live documents: what the index's scores must equal. */
function referenceBm25(docs: Map<number, string[]>, query: string[], { k1, b } = DEFAULT_BM25) {
  const avg = [...docs.values()].reduce((a, d) => a + d.length, 0) / docs.size;
  const out: Array<{ id: number; score: number }> = [];
  for (const [id, terms] of docs) {
    let score = 0;
    for (const term of new Set(query)) {
      const tf = terms.filter((t) => t === term).length;
      if (tf === 0) continue;
      const df = [...docs.values()].filter((d) => d.includes(term)).length;
      const idf = Math.log(1 + (docs.size - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / avg));
    }
    if (score > 0) out.push({ id, score });
  }
  return out.sort((x, y) => y.score - x.score || x.id - y.id);
}

describe("textTerms", () => {
  it("lower-cases, drops stop words and stems", () => {
    expect(textTerms("The Mutations were running in the mice")).toEqual(["mutat", "run", "mice"]);
  });

  it("spells Greek letters out and keeps a hyphenated compound as one word too", () => {
    expect(textTerms("TNF-α and IL-6")).toEqual(["tnf", "alpha", "il", "6", "tnfalpha", "il6"]);
    // Whichever way a paper or a question writes it, the terms meet.
    expect(textTerms("TNF-alpha")).toEqual(textTerms("TNF-α"));
    expect(textTerms("IL-6 levels")).toEqual(expect.arrayContaining(textTerms("IL6 levels")));
    expect(textTerms("anti-inflammatory")).toEqual(expect.arrayContaining(textTerms("antiinflammatory")));
    expect(textTerms("covid-19")).toContain("covid19");
  });

  it("drops the possessive and keeps numbers and inner apostrophes whole, as Unicode's word boundaries and Lucene's English analysis do", () => {
    expect(textTerms("Alzheimer's patients")).toEqual(textTerms("Alzheimer patients"));
    expect(textTerms("Crohn\u2019s disease")).toEqual(textTerms("Crohn disease"));
    // A dose of 2.5 mg is not a 2 and a 5, nor 1,000 cells a 1 and a 000.
    expect(textTerms("2.5 mg in 1,000 cells")).toEqual(["2.5", "mg", "1,000", "cell"]);
    expect(textTerms("don't")).toEqual(["don't"]);
    // A sentence's full stop is not inside a word.
    expect(textTerms("levels rose. Then fell")).toEqual(["level", "rose", "fell"]);
  });
});

describe("Bm25Index", () => {
  it("ranks by term rarity and frequency, and forgets removed chunks completely", () => {
    const index = new Bm25Index();
    index.add(1, textTerms("apple banana apple"));
    index.add(2, textTerms("banana cherry"));
    index.add(3, textTerms("cherry date"));
    expect(index.search(textTerms("apple"), 10).map((s) => s.id)).toEqual([1]);
    expect(index.search(textTerms("banana cherry"), 10)[0].id).toBe(2);
    index.remove(2);
    expect(index.df("banana")).toBe(1);
    expect(index.search(textTerms("banana cherry"), 10).map((s) => s.id).sort()).toEqual([1, 3]);
  });

  it("survives a JSON round trip with identical scores", () => {
    const index = new Bm25Index();
    index.add(1, textTerms("solar panels convert light"));
    index.add(2, textTerms("wind turbines convert motion"));
    const copy = Bm25Index.fromJSON(JSON.parse(JSON.stringify(index.toJSON())));
    expect(copy.search(textTerms("convert light"), 5)).toEqual(index.search(textTerms("convert light"), 5));
  });
});

describe("Bm25Index under churn", () => {
  it("scores like plain BM25 after thousands of adds, re-adds and removals (slots freed and compacted) and a reload", () => {
    const texts = randomDocs(3000);
    const index = new Bm25Index();
    const live = new Map<number, string[]>();
    texts.forEach((text, i) => {
      const terms = text.split(" ");
      index.add(i, terms);
      live.set(i, terms);
    });
    // Remove two thirds (past the compaction threshold), re-add some under the same ids with new text.
    for (let i = 0; i < 3000; i++) {
      if (i % 3 === 0) continue;
      index.remove(i);
      live.delete(i);
    }
    for (let i = 1; i < 600; i += 3) {
      const terms = texts[2999 - i].split(" ");
      index.add(i, terms);
      live.set(i, terms);
    }
    const query = texts[42].split(" ").slice(0, 6);
    const expected = referenceBm25(live, query).slice(0, 20);
    const stored = index.toBuffer();
    for (const copy of [index, Bm25Index.fromJSON(JSON.parse(JSON.stringify(index.toJSON()))), Bm25Index.fromBuffer(stored)]) {
      const got = copy.search(query, 20);
      expect(got.map((s) => s.id)).toEqual(expected.map((s) => s.id));
      got.forEach((s, i) => expect(s.score).toBeCloseTo(expected[i].score, 9));
      expect(copy.size).toBe(live.size);
    }
    // A reloaded index goes on taking changes.
    const reloaded = Bm25Index.fromBuffer(stored);
    reloaded.remove(0);
    reloaded.add(5000, ["zzunique", "zzunique"]);
    expect(reloaded.search(["zzunique"], 5).map((s) => s.id)).toEqual([5000]);
    expect(reloaded.df("zzunique")).toBe(1);
    expect(() => Bm25Index.fromBuffer(stored.subarray(0, stored.byteLength - 8))).toThrow(/does not match/);
  });
});

describe("fuseScores", () => {
  it("combines min-max normalized scores with weight alpha on BM25", () => {
    const fused = fuseScores(
      [{ id: 1, score: 10 }, { id: 2, score: 5 }, { id: 3, score: 0 }],
      [{ id: 3, score: 0.9 }, { id: 1, score: 0.5 }, { id: 4, score: 0.1 }],
      0.6,
    );
    expect(fused.map((s) => s.id)).toEqual([1, 3, 2, 4]);
    expect(fused[0].score).toBeCloseTo(0.6 * 1 + 0.4 * 0.5);
  });
});
