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
});
