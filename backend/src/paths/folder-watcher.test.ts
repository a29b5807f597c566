import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FolderWatcher } from "./folder-watcher.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let watcher: FolderWatcher | null = null;
let root = "";

async function start(folders: string[], options: { maxFolders?: number } = {}) {
  root = await mkdtemp(join(tmpdir(), "moc-folder-watch-"));
  for (const folder of folders) await mkdir(join(root, folder), { recursive: true });
  const calls = { n: 0 };
  watcher = new FolderWatcher(root, { rootNames: ["knowledge"], pollMs: 200, debounceMs: 50, gapMs: 50, onChange: () => void calls.n++, ...options });
  await watcher.track(folders);
  await sleep(300); // the look asked for after the first watches
  calls.n = 0;
  return calls;
}

afterEach(async () => {
  watcher?.close();
  watcher = null;
  await rm(root, { recursive: true, force: true });
});

describe("FolderWatcher", () => {
  it("one folder event per change, debounced; nothing while nothing changes", async () => {
    const calls = await start(["knowledge", "knowledge/a"]);
    await sleep(1500);
    expect(calls.n).toBe(0);
    for (let i = 0; i < 50; i++) await writeFile(join(root, `knowledge/a/n${i}.md`), "x");
    await expect.poll(() => calls.n, { timeout: 2000 }).toBeGreaterThan(0);
    expect(calls.n).toBeLessThan(5); // 50 writes, debounced into a few looks
    expect(watcher!.state).toEqual({ mode: "events", folders: 3, reason: null });
  });

  it("watches the data root when made, and a track right away keeps its folders past the first root check", async () => {
    root = await mkdtemp(join(tmpdir(), "moc-folder-watch-"));
    await mkdir(join(root, "knowledge/a"), { recursive: true });
    watcher = new FolderWatcher(root, { rootNames: ["knowledge"], pollMs: 200, onChange: () => {} });
    expect(watcher.state.folders).toBe(1); // before: 0 until an lstat came back, and a write then was missed
    await watcher.track(["knowledge", "knowledge/a"]);
    await sleep(1200); // a root check has run
    expect(watcher.state).toEqual({ mode: "events", folders: 3, reason: null });
  });

  it("at the data root only the named entries count", async () => {
    const calls = await start(["knowledge"]);
    await writeFile(join(root, "other.txt"), "x");
    await mkdir(join(root, "sessions"));
    await sleep(400);
    expect(calls.n).toBe(0);
    await rm(join(root, "knowledge"), { recursive: true });
    await expect.poll(() => calls.n, { timeout: 2000 }).toBeGreaterThan(0);
  });

  it("a folder replaced under the same name is watched afresh at the next track", async () => {
    const calls = await start(["knowledge", "knowledge/a"]);
    await rm(join(root, "knowledge/a"), { recursive: true });
    await mkdir(join(root, "knowledge/a"));
    await expect.poll(() => calls.n, { timeout: 2000 }).toBeGreaterThan(0);
    await watcher!.track(["knowledge", "knowledge/a"]);
    await sleep(300);
    calls.n = 0;
    await writeFile(join(root, "knowledge/a/new.md"), "x");
    await expect.poll(() => calls.n, { timeout: 2000 }).toBeGreaterThan(0);
  });

  it("the data root deleted and made again: noticed within about a second, and watched again", async () => {
    const calls = await start(["knowledge"]);
    await rm(root, { recursive: true });
    await sleep(300);
    await mkdir(join(root, "knowledge"), { recursive: true });
    await expect.poll(() => calls.n, { timeout: 3000 }).toBeGreaterThan(0);
    await watcher!.track(["knowledge"]);
    await sleep(300);
    calls.n = 0;
    await writeFile(join(root, "knowledge/back.md"), "x");
    await expect.poll(() => calls.n, { timeout: 2000 }).toBeGreaterThan(0);
  });

  it("more folders than it may watch: falls back to polling and says why", async () => {
    const folders = ["knowledge", ...Array.from({ length: 12 }, (_, i) => `knowledge/f${i}`)];
    const calls = await start(folders, { maxFolders: 8 });
    expect(watcher!.state).toEqual({ mode: "polling", folders: 0, reason: "13 folders, more than the 8 watched at most" });
    await sleep(700);
    expect(calls.n).toBeGreaterThanOrEqual(2); // every pollMs (200 ms)
  });
});
