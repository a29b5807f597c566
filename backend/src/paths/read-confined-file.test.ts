import { execFileSync } from "node:child_process";
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfinedFile, readConfinedText, type UnreadableReason } from "./read-confined-file.js";
import { walkConfinedDir } from "./walk-confined-dir.js";

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "moc-read-"));
  root = join(base, "root");
  await mkdir(join(root, "memory/real"), { recursive: true });
  await writeFile(join(base, "outside.txt"), "OUTSIDE");
  await writeFile(join(root, "memory/ok.md"), "fine\n");
  await writeFile(join(root, "memory/real/deep.md"), "deep\n");
  await writeFile(join(root, "memory/big.md"), "x".repeat(5000));
  await writeFile(join(root, "memory/bin.md"), Buffer.from([1, 0, 2]));
  await symlink(join(base, "outside.txt"), join(root, "memory/link.md"));
  await symlink(join(root, "memory/ok.md"), join(root, "memory/inner-link.md"));
  await symlink(join(root, "memory/real"), join(root, "memory/mid"));
  await link(join(base, "outside.txt"), join(root, "memory/hard.md"));
  execFileSync("mkfifo", [join(root, "memory/fifo.md")]);
});
afterAll(async () => rm(base, { recursive: true, force: true }));

async function reason(path: string, maxBytes = 1000): Promise<UnreadableReason | "read"> {
  return readConfinedText(root, path, maxBytes).then(
    () => "read" as const,
    (err: { reason: UnreadableReason }) => err.reason,
  );
}

describe("readConfinedFile", () => {
  it("reads a regular file", async () => {
    expect((await readConfinedText(root, "memory/ok.md", 100)).content).toBe("fine\n");
    expect((await readConfinedFile(root, "memory/real/deep.md", { maxBytes: 100 })).bytes).toBe(5);
  });
  it("refuses links at the end and in the middle, even ones that stay inside", async () => {
    expect(await reason("memory/link.md")).toBe("symlink");
    expect(await reason("memory/inner-link.md")).toBe("symlink");
    expect(await reason("memory/mid/deep.md")).toBe("symlink");
  });
  it("refuses FIFOs without blocking, hard links, folders, oversize and binary files; names the missing", async () => {
    expect(await reason("memory/fifo.md")).toBe("not-regular");
    expect(await reason("memory/hard.md")).toBe("hard-link");
    expect(await reason("memory/real")).toBe("folder");
    expect(await reason("memory/big.md", 4999)).toBe("too-large");
    expect(await reason("memory/bin.md")).toBe("binary");
    expect(await reason("memory/none.md")).toBe("missing");
    expect(await reason("memory/ok.md/x")).toBe("missing");
  });
});

describe("walkConfinedDir", () => {
  it("lists regular files only, reports links, and stops at its caps", async () => {
    const walk = await walkConfinedDir(root, "memory", { maxDepth: 4, maxFiles: 100 });
    const paths = walk.files.map((f) => f.path);
    expect(paths).toContain("memory/ok.md");
    expect(paths).toContain("memory/real/deep.md");
    expect(paths).not.toContain("memory/link.md");
    expect(walk.skipped).toEqual(
      expect.arrayContaining([
        { path: "memory/link.md", reason: "symlink refused" },
        { path: "memory/mid", reason: "symlink refused" },
        { path: "memory/fifo.md", reason: "not a regular file" },
      ]),
    );
    const capped = await walkConfinedDir(root, "memory", { maxDepth: 0, maxFiles: 2 });
    expect(capped.files).toHaveLength(2);
    expect(capped.truncated).toMatch(/more than 2 files/);
  });
});
