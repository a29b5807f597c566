import { expect, it } from "vitest";
import { COMMON_POSTINGS, MAX_QUERY_TERMS, queryTerms, scoredTerms } from "./scored-terms.js";

const df = (entries: Record<string, number>) => new Map(Object.entries(entries));

it("reads every term whole below 20,000 chunks", () => {
  expect(scoredTerms(["a", "b"], df({ a: 19_000, b: 3 }), 19_999)).toEqual([
    { term: "a", cap: null },
    { term: "b", cap: null },
  ]);
});

it("past 20,000 chunks, a query with rarer terms is matched on those alone", () => {
  expect(scoredTerms(["the", "kiln", "glaze"], df({ the: 150_000, kiln: 900, glaze: 10_000 }), 200_000)).toEqual([
    { term: "kiln", cap: null },
    { term: "glaze", cap: null },
  ]);
});

it("a query of common words only reads its rarest words within the postings budget, the rarest capped when it alone is over", () => {
  const chunks = 100_000;
  expect(scoredTerms(["a", "b", "c"], df({ a: 90_000, b: COMMON_POSTINGS / 2, c: COMMON_POSTINGS / 4 }), chunks)).toEqual([
    { term: "c", cap: null },
    { term: "b", cap: null },
  ]);
  expect(scoredTerms(["a", "b"], df({ a: 95_000, b: COMMON_POSTINGS + 1 }), chunks)).toEqual([{ term: "b", cap: COMMON_POSTINGS }]);
});

it("counts a query's first 200 distinct terms", () => {
  const terms = Array.from({ length: 500 }, (_, i) => `t${i}`);
  expect(scoredTerms(queryTerms(terms), new Map(), 10).map((t) => t.term)).toEqual(terms.slice(0, MAX_QUERY_TERMS));
});
