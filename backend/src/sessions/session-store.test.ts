import { appendFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newSessionId } from "./session-id.js";
import { SessionStore } from "./session-store.js";

let root: string;
let store: SessionStore;
const ts = "2026-01-01T00:00:00.000Z";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "moc-sessions-"));
  await mkdir(join(root, "sessions"));
  store = new SessionStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("SessionStore", () => {
  it("appends entries in order, even when not awaited one by one", async () => {
    const id = newSessionId();
    await store.create(id);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(id, { type: "user", ts, content: `m${i}` })));
    const session = await store.read(id);
    expect(session.entries.map((e) => e.type === "user" && e.content)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    expect(session.title).toBe("m0");
  });

  it("recovers a torn last line: it is dropped on reading and fenced off before the next append", async () => {
    const id = newSessionId();
    await store.create(id);
    await store.append(id, { type: "user", ts, content: "kept" });
    const file = join(root, "sessions", `${id}.jsonl`);
    await appendFile(file, '{"type":"event","ts":"2026-01-01T00:00:0'); // a crash mid-write
    const fresh = new SessionStore(root); // a restarted server
    const torn = await fresh.read(id);
    expect(torn.entries).toHaveLength(1);
    expect(torn.recovered_torn_line).toBe(true);
    await fresh.append(id, { type: "user", ts, content: "after restart" });
    const healed = await fresh.read(id);
    expect(healed.entries.map((e) => e.type === "user" && e.content)).toEqual(["kept", "after restart"]);
    expect((await readFile(file, "utf8")).split("\n").filter(Boolean)).toHaveLength(4); // header, kept, torn, after restart
  });

  it("lists sessions newest first with title and message count", async () => {
    const a = "20260101-000000-aaaaaa";
    const b = "20260102-000000-bbbbbb";
    await store.create(a);
    await store.append(a, { type: "user", ts, content: "first  session\ntitle" });
    await store.append(a, { type: "event", ts, event: { type: "final", content: "reply", duration_ms: 1 } });
    await new Promise((r) => setTimeout(r, 20));
    await store.create(b);
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual([b, a]);
    expect(list[1]).toMatchObject({ title: "first session title", message_count: 2 });
    expect(list[0]).toMatchObject({ title: "New session", message_count: 0 });
  });

  it("refuses unsafe ids before touching the disk", async () => {
    await expect(store.read("../../etc/passwd")).rejects.toThrow(/Invalid session_id/);
    await expect(store.append("a/b", { type: "user", ts, content: "x" })).rejects.toThrow(/Invalid session_id/);
  });
});

describe("SessionStore write failures", () => {
  it("a failed append rejects for its caller and leaves no unhandled rejection behind", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const id = newSessionId();
      await store.create(id);
      await rm(join(root, "sessions"), { recursive: true }); // the folder vanishes under the store
      await expect(store.append(id, { type: "user", ts, content: "lost" })).rejects.toThrow(/ENOENT/);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
