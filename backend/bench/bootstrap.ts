import { seededRandom } from "../test-support/seeded-random.js";

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The 95% paired-bootstrap interval of the mean of per-query differences (10,000 resamples): an
 * interval that holds 0 is a difference the queries cannot tell apart from chance.
 */
export function pairedInterval(diffs: number[]): [number, number] {
  const next = seededRandom(20261125);
  const means: number[] = [];
  for (let r = 0; r < 10_000; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(next() * diffs.length)];
    means.push(sum / diffs.length);
  }
  means.sort((x, y) => x - y);
  return [means[249], means[9749]];
}
