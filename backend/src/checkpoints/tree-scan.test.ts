import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanChangedSince } from "./tree-scan.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("scanChangedSince", () => {
  let root = "";
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("hands over every folder but only the files changed after the time, and says which folders' entries changed", async () => {
    root = await mkdtemp(join(tmpdir(), "tree-scan-"));
    await mkdir(join(root, "workspace/old"), { recursive: true });
    await writeFile(join(root, "workspace/old/a.txt"), "a");
    await writeFile(join(root, "workspace/keep.txt"), "k");
    // The kernel stamps change times with a coarse clock: a pause puts "since" clearly after them.
    await pause(50);
    const since = Date.now() / 1000;
    await pause(50);
    await writeFile(join(root, "workspace/old/a.txt"), "changed");
    await mkdir(join(root, "workspace/new"));
    await writeFile(join(root, "workspace/new/b.txt"), "b");
    const scan = await scanChangedSince(root, since, ["workspace"]);
    expect(scan).not.toBeNull();
    expect([...scan!.files.keys()].sort()).toEqual(["workspace/new/b.txt", "workspace/old/a.txt"]);
    expect([...scan!.dirs].sort()).toEqual(["workspace", "workspace/new", "workspace/old"]);
    // old/ only had a file rewritten: its entries are the same.
    expect([...scan!.changedDirs].sort()).toEqual(["workspace", "workspace/new"]);
  });

  it("says it cannot tell (null) when a changed name is not UTF-8, so the caller scans in full", async () => {
    root = await mkdtemp(join(tmpdir(), "tree-scan-"));
    await mkdir(join(root, "workspace"));
    await writeFile(Buffer.from(`${root}/workspace/odd\xe9.txt`, "latin1"), "x");
    expect(await scanChangedSince(root, 0, ["workspace"])).toBeNull();
  });
});
