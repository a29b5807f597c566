import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UiEvent } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { WorkspaceWatcher } from "./workspace-watcher.js";

describe("WorkspaceWatcher", () => {
  it("survives its data root going away under it: no unhandled rejection, and it goes on when the root is back", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-watch-"));
    await mkdir(join(root, "memory"));
    await writeFile(join(root, "memory/MEMORY.md"), "one\n");
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const watcher = new WorkspaceWatcher(root);
    const events: UiEvent[] = [];
    try {
      watcher.subscribe((event) => events.push(event));
      await new Promise((r) => setTimeout(r, 700)); // the first poll learns the files
      await rm(root, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 1200)); // polls over a missing root
      expect(unhandled).toEqual([]);
      await mkdir(join(root, "memory"), { recursive: true });
      await writeFile(join(root, "memory/MEMORY.md"), "two, longer\n");
      await expect.poll(() => events.some((e) => e.type === "file_changed" && e.path === "memory/MEMORY.md"), { timeout: 3000 }).toBe(true);
    } finally {
      watcher.close();
      process.off("unhandledRejection", onUnhandled);
      await rm(root, { recursive: true, force: true });
    }
  });

  it("scans only after a change: none while the files sit still, one event per edit", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-watch-"));
    await mkdir(join(root, "memory"));
    await mkdir(join(root, "skills/greet"), { recursive: true });
    await writeFile(join(root, "memory/MEMORY.md"), "one\n");
    const watcher = new WorkspaceWatcher(root);
    const events: UiEvent[] = [];
    try {
      watcher.subscribe((event) => events.push(event));
      await new Promise((r) => setTimeout(r, 800)); // the first scan, and the look after the first watches
      const scans = watcher.scans;
      await new Promise((r) => setTimeout(r, 2000)); // four periods of the old 500 ms polling
      expect(watcher.scans, "scans while nothing changed").toBe(scans);
      await writeFile(join(root, "memory/MEMORY.md"), "two, longer\n");
      await expect.poll(() => events.some((e) => e.type === "file_changed" && e.path === "memory/MEMORY.md"), { timeout: 2000 }).toBe(true);
      await writeFile(join(root, "skills/greet/SKILL.md"), "no frontmatter here\n");
      await expect.poll(() => events.some((e) => e.type === "refresh" && e.target === "skills"), { timeout: 2000 }).toBe(true);
    } finally {
      watcher.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("a tool churning files: scans start at most every 500 ms, and the last change is seen", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-watch-"));
    await mkdir(join(root, "workspace"));
    const watcher = new WorkspaceWatcher(root);
    const changedAt: number[] = [];
    try {
      watcher.subscribe((event) => event.type === "file_changed" && changedAt.push(Date.now()));
      await new Promise((r) => setTimeout(r, 800));
      const before = watcher.scans;
      const started = Date.now();
      let lastWrite = 0;
      for (let i = 0; i < 60; i++) {
        await writeFile(join(root, "workspace/churn.md"), `version ${i}\n`.repeat(i + 1));
        lastWrite = Date.now();
        await new Promise((r) => setTimeout(r, 50));
      }
      const seconds = (lastWrite - started) / 1000;
      // The last write is reported too (a scan after it), then nothing more happens.
      await expect.poll(() => changedAt.some((at) => at >= lastWrite), { timeout: 2000 }).toBe(true);
      await new Promise((r) => setTimeout(r, 700));
      const scans = watcher.scans - before;
      expect(scans, `${scans} scans in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(Math.ceil(seconds / 0.5) + 3);
      const settled = watcher.scans;
      await new Promise((r) => setTimeout(r, 800));
      expect(watcher.scans).toBe(settled);
    } finally {
      watcher.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
