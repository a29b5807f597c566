/**
 * Session files written straight to disk, in format version 2 (protocol `session-entries.ts`), for
 * tests and benchmarks that need many or old sessions without running their turns.
 */
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionEntry } from "@mini-openclaw/protocol";

/** A finished session of `turns` turns; `text(i)` gives turn i's (1-based) question and answer. */
export async function writeSessionFile(
  dataRoot: string,
  id: string,
  turns: number,
  text: (turn: number) => { user: string; answer: string },
  at = new Date("2026-01-15T10:00:00Z"),
): Promise<string> {
  const entries: Array<SessionEntry | { type: "header"; ts: string; v: 2 }> = [{ type: "header", ts: at.toISOString(), v: 2 }];
  for (let i = 1; i <= turns; i++) {
    const ts = new Date(at.getTime() + i * 60_000).toISOString();
    const { user, answer } = text(i);
    entries.push({ type: "user", ts, content: user });
    entries.push({ type: "event", ts, event: { type: "token", content: answer } });
    entries.push({ type: "event", ts, event: { type: "final", content: answer, duration_ms: 1200 } });
  }
  const file = join(dataRoot, "sessions", `${id}.jsonl`);
  await mkdir(join(dataRoot, "sessions"), { recursive: true });
  await writeFile(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
  const last = new Date(at.getTime() + turns * 60_000);
  await utimes(file, last, last);
  return file;
}
