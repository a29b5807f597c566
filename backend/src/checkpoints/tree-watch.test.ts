import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TreeWatch } from "./tree-watch.js";

const settle = () => new Promise((r) => setTimeout(r, 150));

describe("TreeWatch", () => {
  let root = "";
  let watch: TreeWatch | null = null;
  afterEach(async () => {
    watch?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("a folder first watched after a scan read it counts as changed since that scan; one already watched does not", async () => {
    root = await mkdtemp(join(tmpdir(), "tree-watch-"));
    await mkdir(join(root, "workspace"));
    watch = new TreeWatch(root);
    // The scan began here; the folder was read without a watch on it (a write then would be unseen).
    const firstScan = performance.now();
    watch.follow(["workspace"]);
    expect(watch.changedSince(firstScan)).toBe(true);

    await settle();
    const secondScan = performance.now();
    watch.follow(["workspace"]);
    await settle();
    expect(watch.changedSince(secondScan)).toBe(false);

    await writeFile(join(root, "workspace", "a.txt"), "x");
    await settle();
    expect(watch.changedSince(secondScan)).toBe(true);
  });

  it("a folder that a later scan finds is new to the watch: changed since that scan", async () => {
    root = await mkdtemp(join(tmpdir(), "tree-watch-"));
    await mkdir(join(root, "workspace"));
    watch = new TreeWatch(root);
    watch.follow(["workspace"]);
    await mkdir(join(root, "workspace", "sub"));
    await settle();
    const scan = performance.now();
    watch.follow(["workspace", "workspace/sub"]);
    expect(watch.changedSince(scan)).toBe(true);
  });
});
