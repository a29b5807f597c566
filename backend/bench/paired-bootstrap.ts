/**
 * Two versions' per-query nDCG@10 on SciFact (each written by `SCIFACT_SCORES=file bench:knowledge`),
 * compared query by query: the mean difference and its 95% paired-bootstrap interval, per split and
 * method. A difference whose interval holds 0 is not one the queries can tell apart from chance.
 * The test queries are also split in the halves bench/fusion-tuning.ts tunes on and holds out.
 * Two methods of one run compare as `before:after` (e.g. `stemmed_bm25:hybrid`, the same file twice).
 * Run: npx tsx bench/paired-bootstrap.ts before.json after.json [method=hybrid | methodA:methodB]
 */
import { readFileSync } from "node:fs";
import { mean, pairedInterval } from "./bootstrap.js";

type Split = { queries: string[] } & Record<string, number[]>;
type Scores = Record<"test" | "train", Split>;

const [beforeFile, afterFile, method = "hybrid"] = process.argv.slice(2);
const [methodA, methodB = methodA] = method.split(":");
if (!beforeFile || !afterFile) {
  console.error("usage: tsx bench/paired-bootstrap.ts before.json after.json [method]");
  process.exit(1);
}
const before = JSON.parse(readFileSync(beforeFile, "utf8")) as Scores;
const after = JSON.parse(readFileSync(afterFile, "utf8")) as Scores;

/** The splits reported: the test queries' tuning half (even positions) and held-out half (odd), the whole test set, train. */
const halves = (split: Split, keep: (i: number) => boolean): Split =>
  Object.fromEntries(Object.entries(split).map(([key, values]) => [key, (values as Array<string | number>).filter((_, i) => keep(i))])) as Split;
const splits = (scores: Scores): Record<string, Split> => ({
  "test, tuning half": halves(scores.test, (i) => i % 2 === 0),
  "test, held-out half": halves(scores.test, (i) => i % 2 === 1),
  test: scores.test,
  train: scores.train,
});
const beforeSplits = splits(before);
const afterSplits = splits(after);

for (const split of Object.keys(beforeSplits)) {
  const a = beforeSplits[split];
  const b = afterSplits[split];
  if (a.queries.join() !== b.queries.join()) throw new Error(`${split}: the two runs scored different queries`);
  const diffs = b[methodB].map((score, i) => score - a[methodA][i]);
  const [low, high] = pairedInterval(diffs);
  const changed = diffs.filter((d) => Math.abs(d) > 1e-9).length;
  const base = mean(a[methodA]);
  console.log(
    `${split} (${diffs.length} queries, ${changed} scored differently), nDCG@10 ${methodA} ${base.toFixed(4)} → ${methodB} ${mean(b[methodB]).toFixed(4)} (${(mean(b[methodB]) / base).toFixed(3)}×), ` +
      `difference ${mean(diffs).toFixed(4)}, 95% interval [${low.toFixed(4)}, ${high.toFixed(4)}]`,
  );
}
