/**
 * The agent as the adversary, after the server's availability: special files where the server
 * reads, endless files, a huge document, a huge or deep tree. Through each, /api/health must answer
 * within 1 s (measured from outside the server's process), and the key must leak nowhere.
 */
import type { PromptReply } from "@mini-openclaw/protocol";
import { connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AttackedServer, startAttackedServer } from "../../test-support/adversary.js";

let s: AttackedServer;

beforeAll(async () => {
  s = await startAttackedServer();
});
afterAll(async () => s?.close());
afterEach(async () => {
  expect(await s.leaks()).toEqual([]);
  expect(s.alive()).toBe(true);
});

async function planted(command: string, timeoutMs?: number) {
  const result = await s.plant(command, timeoutMs);
  expect(result.exitCode, result.output).toBe(0);
}

/** Samples /api/health every `everyMs` while `work` runs; returns the slowest answer in ms. */
async function slowestHealthDuring(work: Promise<unknown>, everyMs = 100): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  do {
    slowest = Math.max(slowest, await s.healthMs(3000));
    await new Promise((r) => setTimeout(r, everyMs));
  } while (!done);
  await work;
  console.log(`slowest /api/health answer: ${slowest.toFixed(0)} ms`);
  return slowest;
}

interface KnowledgeStatus {
  documents: number;
  chunks: number;
  indexing: { running: boolean; done: number; total: number };
  skipped: Array<{ path: string; reason: string }>;
  truncated: string | null;
}
const knowledgeStatus = async () => JSON.parse((await s.request("/api/knowledge/status")).text) as KnowledgeStatus;

describe("special files where the server reads", () => {
  it("a FIFO as AGENTS.md: the prompt view names it, and nothing hangs", async () => {
    await planted("rm -f workspace/AGENTS.md && mkfifo workspace/AGENTS.md");
    const views = await Promise.all(Array.from({ length: 8 }, () => s.request("/api/prompt")));
    for (const view of views) {
      expect(view.status).toBe(200);
      const section = (JSON.parse(view.text) as PromptReply).sections.find((x) => x.name === "AGENTS.md");
      expect(section).toMatchObject({ problem: "not a regular file" });
    }
    const file = await s.request("/api/files?path=workspace/AGENTS.md");
    expect(file.status).toBe(400);
    expect(file.text).toMatch(/not a regular file \(a FIFO\)/);
    for (const path of ["/api/sessions", "/api/files/list", "/api/skills", "/api/agents", "/api/files?path=memory/MEMORY.md"]) {
      expect((await s.request(path)).status, path).toBe(200);
    }
    const chat = await s.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "still there?", stream: false }),
    });
    expect(chat.status).toBe(200);
    expect(await s.healthMs()).toBeLessThan(1000);
  });

  it("FIFOs as a SKILL.md, a role, REVIEWER.md and a knowledge document are problems, not hangs", async () => {
    await planted(
      "mkdir -p skills/fifo && mkfifo skills/fifo/SKILL.md agents/fifo.md knowledge/fifo.md && rm -f workspace/REVIEWER.md && mkfifo workspace/REVIEWER.md",
    );
    const skills = await s.request("/api/skills");
    expect(skills.text).toMatch(/"folder":"fifo"[^}]*not a regular file/);
    expect((await s.request("/api/agents")).text).toMatch(/agents\/fifo\.md[^}]*not a regular file/);
    await expect.poll(async () => (await knowledgeStatus()).skipped, { timeout: 8000 }).toContainEqual({ path: "knowledge/fifo.md", reason: "not a regular file" });
    expect(await s.healthMs()).toBeLessThan(1000);
  });

  it("a link to /dev/zero as MEMORY.md: six prompt views at once answer fast and the server lives", async () => {
    await planted("ln -sfn /dev/zero memory/MEMORY.md && ln -sfn /dev/urandom knowledge/random.md");
    const started = performance.now();
    const views = await Promise.all(Array.from({ length: 6 }, () => s.request("/api/prompt")));
    expect(performance.now() - started).toBeLessThan(2000);
    for (const view of views) {
      expect((JSON.parse(view.text) as PromptReply).sections.find((x) => x.name === "MEMORY.md")).toMatchObject({ problem: "symlink refused" });
    }
    expect(await s.healthMs()).toBeLessThan(1000);
  });
});

describe("big and many", () => {
  it("a 20 MB document is indexed off the server's thread: /api/health stays under 1 s throughout", async () => {
    // Prose with a word near its end that occurs nowhere else, to find it once indexed.
    await planted(
      "python3 - <<'EOF'\n" +
        "import random\nrandom.seed(7)\n" +
        "words = 'the cabbage ferments slowly in brine while lactic bacteria turn sugar into acid and flavour'.split()\n" +
        "with open('knowledge/book.md', 'w') as f:\n" +
        "    size = 0\n" +
        "    while size < 20 * 1024 * 1024 - 200:\n" +
        "        line = ' '.join(random.choice(words) for _ in range(random.randint(8, 30))).capitalize() + '.\\n'\n" +
        "        if random.random() < 0.1: line += '\\n'\n" +
        "        f.write(line); size += len(line)\n" +
        "    f.write('The last page mentions zymurgyfinale once.\\n')\n" +
        "EOF",
      60_000,
    );
    const indexed = (async () => {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const reply = await s.request("/api/knowledge/search?q=zymurgyfinale&k=1");
        if (reply.text.includes("knowledge/book.md")) return true;
        await new Promise((r) => setTimeout(r, 500));
      }
      return false;
    })();
    const slowest = await slowestHealthDuring(indexed);
    expect(await indexed, "the 20 MB document was indexed").toBe(true);
    expect(slowest).toBeLessThan(1000);
  }, 180_000);

  it("a Word zip bomb (600 MB of zeros in 600 kB) fails with its reason, and the server's memory stays bounded", async () => {
    // Streamed by Python's zipfile (zip64), as a crafted document would be: the part declares nothing it will not hold.
    await planted(
      "python3 - <<'EOF'\n" +
        "import zipfile\n" +
        "with zipfile.ZipFile('knowledge/bomb.docx', 'w', zipfile.ZIP_DEFLATED) as z:\n" +
        "    z.writestr('[Content_Types].xml', '<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>')\n" +
        "    with z.open('word/document.xml', 'w', force_zip64=True) as part:\n" +
        "        zeros = b'0' * (1024 * 1024)\n" +
        "        for _ in range(600): part.write(zeros)\n" +
        "EOF",
      60_000,
    );
    await s.resetPeak();
    const before = await s.peakRssMb();
    let last = "";
    const failed = (async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const docs = JSON.parse((await s.request("/api/knowledge/documents")).text) as { documents: Array<{ path: string; state: string; reason?: string }> };
        const bomb = docs.documents.find((d) => d.path === "knowledge/bomb.docx");
        // (Read while Python was still writing it, it may first fail as a torn zip; it is read again once whole.)
        if (bomb?.state === "failed" && /unpacks/.test(bomb.reason ?? "")) return bomb.reason ?? "";
        last = bomb ? `${bomb.state}: ${bomb.reason ?? ""}` : "not listed";
        await new Promise((r) => setTimeout(r, 300));
      }
      return last;
    })();
    const slowest = await slowestHealthDuring(failed);
    expect(await failed).toMatch(/unpacks to more than 128 MB/);
    const growth = (await s.peakRssMb()) - before;
    console.log(`peak memory grew by ${growth.toFixed(0)} MB`);
    expect(growth).toBeLessThan(200);
    expect(slowest).toBeLessThan(1000);
  }, 120_000);

  it("40 readers that join a 60 MB answer midway and read nothing hold a bounded backlog each, and get every event once they read", async () => {
    // A model at a pace a reader can follow (64 kB every 5 ms: 60 MB in about 5 s), so readers can join midway.
    s.model.setScript([{ content: "y".repeat(60 * 1024 * 1024), chunkChars: 64 * 1024, chunkDelayMs: 5 }]);
    const before = await s.rssMb();
    const started = await fetch(`${s.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "a long answer please", stream: true }) });
    const reader = started.body!.getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value, { stream: true });
    const sessionId = /"session_id":"([^"]+)"/.exec(first)![1];
    const { port } = new URL(s.url);
    /** A reader that asks for the turn's stream and then reads nothing (its socket paused: the kernel's buffers fill). */
    const stalledReader = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1");
        socket.pause();
        socket.once("connect", () => {
          socket.write(`GET /api/sessions/${sessionId}/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
          resolve(socket);
        });
      });
    let received = first.length;
    let ended = false;
    let stalled: Socket[] = [];
    let peakHeld = 0;
    while (!ended) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      received += text.length;
      if (text.includes('"type":"final"')) ended = true;
      // A third of the way in, 40 readers join: each is handed what it missed, and reads none of it.
      if (stalled.length === 0 && received > 20 * 1024 * 1024) stalled = await Promise.all(Array.from({ length: 40 }, stalledReader));
      if (stalled.length > 0) peakHeld = Math.max(peakHeld, (await s.rssMb()) - before);
    }
    expect(ended).toBe(true);
    console.log(`resident memory with 40 stalled readers: up to ${peakHeld.toFixed(0)} MB above before the turn`);
    // The turn itself holds its events (the answer a few times over: its pieces, their frames, the final
    // answer: ~450 MB here); each stalled reader may add ~1 MB of backlog. 40 copies of what they missed
    // (20 MB and more each) must not be: the attack found 1.2 GB with 40 readers, 2.4 GB here before.
    expect(peakHeld).toBeLessThan(900);
    // A stalled reader that reads at last gets the whole turn, to its final event.
    const late = await new Promise<string>((resolve) => {
      const parts: Buffer[] = [];
      stalled[0].on("data", (chunk: Buffer) => parts.push(chunk));
      stalled[0].on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      stalled[0].resume();
    });
    expect(late).toContain('"type":"final"');
    expect(late.split('"type":"token"').length - 1).toBeGreaterThan(100);
    for (const other of stalled.slice(1)) other.destroy();
  }, 120_000);

  it("memory_search over 200 daily logs of 1 MB each: indexed off the server's thread within its caps, /api/health under 200 ms", async () => {
    // Written by the sandbox as python_repl would: one long line of words per file, named like daily logs.
    await planted(
      "python3 - <<'EOF'\n" +
        "import os, random\nrandom.seed(3)\nos.makedirs('memory/logs', exist_ok=True)\n" +
        "words = 'pickle brine cabbage jar lid shelf cellar vinegar dill garlic'.split()\n" +
        "for y in range(1800, 2000):\n" +
        "    line = ' '.join(random.choice(words) for _ in range(180000))[: 1024 * 1024 - 64]\n" +
        "    open(f'memory/logs/{y}-01-01.md', 'w').write(line + ('\\nsaltcellarfinale\\n' if y == 1999 else '\\n'))\n" +
        "EOF",
      120_000,
    );
    // A first turn loads what every turn needs (the model client); the attack is timed on its own.
    s.model.setScript([{ content: "ready" }]);
    await s.request("/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "warm up", stream: false }) });
    s.model.setScript((body) => (body.messages.some((m) => m.role === "tool") ? { content: "recalled" } : { toolCalls: [{ name: "memory_search", args: { query: "saltcellarfinale pickle jar", k: 3 } }] }));
    await s.resetPeak();
    const before = await s.peakRssMb();
    const turn = s.request("/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "what do you remember about the cellar?", stream: false }) });
    const slowest = await slowestHealthDuring(turn, 50);
    const reply = await turn;
    expect(reply.status).toBe(200);
    const result = (JSON.parse(reply.text) as { events: Array<{ type: string; name?: string; output?: string; ok?: boolean }> }).events.find((e) => e.type === "tool_result" && e.name === "memory_search");
    expect(result?.ok).toBe(true);
    // The newest logs fit the memory cap and are searched; what is past it is said.
    expect(result?.output).toContain("memory/logs/1999-01-01.md");
    expect(result?.output).toMatch(/not searched: \d+ older memory files \(past 32 MB of memory\)/);
    const growth = (await s.peakRssMb()) - before;
    console.log(`peak memory grew by ${growth.toFixed(0)} MB`);
    // The attack found 5.7 GB at the peak; the caps hold the index to tens of megabytes of text.
    expect(growth).toBeLessThan(600);
    expect(slowest).toBeLessThan(200);
  }, 180_000);

  it("5,000 documents: all indexed while /api/health stays under 1 s", async () => {
    await planted("python3 -c \"import os\nos.makedirs('knowledge/many', exist_ok=True)\nfor i in range(5000): open(f'knowledge/many/n{i}.md', 'w').write(f'note {i} about pickles number{i}\\n')\"");
    // The progress the Knowledge view draws: samples of done/total while the indexing runs.
    const progress: Array<{ done: number; total: number }> = [];
    const done = (async () => {
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline) {
        const status = await knowledgeStatus();
        if (status.indexing.running) progress.push({ done: status.indexing.done, total: status.indexing.total });
        if (status.documents >= 5000 && !status.indexing.running) return true;
        await new Promise((r) => setTimeout(r, 500));
      }
      return false;
    })();
    const slowest = await slowestHealthDuring(done);
    expect(await done, "all 5,000 documents indexed").toBe(true);
    // Files still being written when a round starts come in a later round: progress is per round (its total).
    const seen = `progress seen while indexing: ${JSON.stringify(progress.slice(0, 20))}`;
    expect(new Set(progress.map((p) => `${p.done}/${p.total}`)).size, seen).toBeGreaterThanOrEqual(2);
    for (const total of new Set(progress.map((p) => p.total))) {
      const round = progress.filter((p) => p.total === total).map((p) => p.done);
      expect(round, seen).toEqual([...round].sort((a, b) => a - b));
      expect(round.every((done) => done <= total), seen).toBe(true);
    }
    expect(slowest).toBeLessThan(1000);
    expect((await s.request("/api/knowledge/search?q=number4321&k=1")).text).toContain("knowledge/many/n4321.md");
  }, 200_000);

  it("100,000 files and folders 1,000 deep: the walk is capped, says so, and the server keeps answering", async () => {
    await planted(
      "python3 -c \"import os\nos.makedirs('knowledge/flood', exist_ok=True)\nfor i in range(100000): open(f'knowledge/flood/f{i}.txt', 'w').close()\" && " +
        "p=knowledge/deep; for i in $(seq 1000); do p=$p/d; done; mkdir -p $p && echo bottom > $p/bottom.md",
      120_000,
    );
    const watch = new Promise((r) => setTimeout(r, 8000));
    const slowest = await slowestHealthDuring(watch);
    expect(slowest).toBeLessThan(1000);
    await expect.poll(async () => (await knowledgeStatus()).truncated, { timeout: 20_000 }).toMatch(/more than 20000 files under knowledge\//);
    expect((await s.request("/api/files/list")).status).toBe(200);
    await planted("rm -rf knowledge/flood knowledge/deep", 120_000);
  }, 240_000);
});
