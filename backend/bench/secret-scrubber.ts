/**
 * What the secret scrubber costs on the server's thread: every reply and every event passes through it.
 * Three texts of a session reply's size: plain session JSON, the same with a mask or a secret's first
 * characters in every entry (the worst ordinary case), and one long word (a 20 MB answer).
 * `npx -y pnpm@10 bench:scrubber`
 */
import { SecretScrubber } from "../src/secrets/secret-scrubber.js";

const scrubber = new SecretScrubber();
scrubber.addSource(() => ["sk-proj-Zq81Lk2mNb7Xc4Vp0RtY9WeA3sDf6GhJ", "Bearer otlp-collector-token-77aa99", "postgres-password-0042"]);

const entry = (content: string) => JSON.stringify({ type: "event", id: 123456, event: { type: "token", block: "b12", content } });
const texts: Array<[string, string]> = [
  ["session JSON, 40,000 entries", Array.from({ length: 40_000 }, () => entry("The quick brown fox jumps over the lazy dog, session 20261127-151545-09309c, call_abc123 ")).join("\n")],
  ["the same, a mask and an sk- in each", Array.from({ length: 40_000 }, () => entry("Loading... **bold** see sk-other-thing and the task list, session 20261127-151545-09309c ")).join("\n")],
  ["one 20 MB word", "y".repeat(20 * 1024 * 1024)],
];

for (const [name, text] of texts) {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    scrubber.scrub(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(40)} ${(text.length / 1e6).toFixed(1).padStart(5)} MB   median ${times[3].toFixed(1)} ms   max ${times[6].toFixed(1)} ms`);
}
