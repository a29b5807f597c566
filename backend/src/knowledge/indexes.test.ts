import { describe, expect, it } from "vitest";
import { Bm25Index } from "./bm25-index.js";
import { fuseScores } from "./fusion.js";
import { offlineEmbed } from "./offline-embedder.js";
import { textTerms } from "./text-terms.js";
import { VectorRows } from "./vector-rows.js";

describe("textTerms", () => {
  it("lower-cases, drops stop words and stems", () => {
    expect(textTerms("The Mutations were running in the mice")).toEqual(["mutat", "run", "mice"]);
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

describe("VectorRows", () => {
  it("finds the nearest unit vector, removes rows, and round-trips through its binary form", () => {
    const rows = new VectorRows(2048);
    rows.set(10, offlineEmbed("insulin secretion by beta cells"));
    rows.set(20, offlineEmbed("the orbit of the moon"));
    rows.set(30, offlineEmbed("insulin resistance in muscle"));
    const query = offlineEmbed("beta cell insulin");
    expect(rows.search(query, 1)[0].id).toBe(10);
    rows.remove(10);
    expect(rows.search(query, 3).map((s) => s.id)).not.toContain(10);
    const { ids, vectors } = rows.toBuffers();
    const copy = VectorRows.fromBuffers(2048, ids, vectors);
    expect(copy.search(query, 3)).toEqual(rows.search(query, 3));
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
