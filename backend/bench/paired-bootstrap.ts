/**
 * Two versions' per-query nDCG@10 on SciFact (each written by `SCIFACT_SCORES=file bench:knowledge`),
 * compared query by query: the mean difference and its 95% paired-bootstrap interval, per split and
 * method. A difference whose interval holds 0 is not one the queries can tell apart from chance.
 * Run: npx tsx bench/paired-bootstrap.ts before.json after.json [method=hybrid]
 */
import { readFileSync } from "node:fs";

type Split = { queries: string[] } & Record<string, number[]>;
type Scores = Record<"test" | "train", Split>;

const [beforeFile, afterFile, method = "hybrid"] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error("usage: tsx bench/paired-bootstrap.ts before.json after.json [method]");
  process.exit(1);
}
const before = JSON.parse(readFileSync(beforeFile, "utf8")) as Scores;
const after = JSON.parse(readFileSync(afterFile, "utf8")) as Scores;

/** A seeded generator (mulberry32), so the interval printed is the same at every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

for (const split of ["test", "train"] as const) {
  const a = before[split];
  const b = after[split];
  if (a.queries.join() !== b.queries.join()) throw new Error(`${split}: the two runs scored different queries`);
  const diffs = b[method].map((score, i) => score - a[method][i]);
  const next = random(20261125);
  const means: number[] = [];
  for (let r = 0; r < 10_000; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(next() * diffs.length)];
    means.push(sum / diffs.length);
  }
  means.sort((x, y) => x - y);
  const changed = diffs.filter((d) => Math.abs(d) > 1e-9).length;
  console.log(
    `${split} (${diffs.length} queries, ${changed} scored differently), ${method} nDCG@10: ${mean(a[method]).toFixed(4)} → ${mean(b[method]).toFixed(4)}, ` +
      `difference ${mean(diffs).toFixed(4)}, 95% interval [${means[249].toFixed(4)}, ${means[9749].toFixed(4)}]`,
  );
}
