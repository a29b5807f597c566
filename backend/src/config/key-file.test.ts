import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureKeyFile } from "./key-file.js";
import { projectRoot } from "./project-paths.js";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
const isCheckout = existsSync(join(projectRoot, ".git"));
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("KEY.md", () => {
  it("is made from KEY.example.md on the first start, for its owner only, and never overwritten", async () => {
    const dir = await mkdtemp(join(tmpdir(), "moc-key-"));
    dirs.push(dir);
    await copyFile(join(projectRoot, "KEY.example.md"), join(dir, "KEY.example.md"));
    expect(ensureKeyFile(join(dir, "KEY.md"))).toBe(true);
    expect(readFileSync(join(dir, "KEY.md"), "utf8")).toContain("OPENAI_API_KEY=");
    expect(statSync(join(dir, "KEY.md")).mode & 0o777).toBe(0o600);
    await writeFile(join(dir, "KEY.md"), "OPENAI_API_KEY=sk-mine\n");
    expect(ensureKeyFile(join(dir, "KEY.md"))).toBe(false);
    expect(readFileSync(join(dir, "KEY.md"), "utf8")).toBe("OPENAI_API_KEY=sk-mine\n");
  });

  it("holding a key, never shows up in git status: the repository ignores it and tracks only the template", async () => {
    if (!isCheckout) console.warn("SKIPPED in part: not a git checkout, so the repository's own index is not checked");
    else {
      expect(git(projectRoot, "ls-files", "KEY.md").trim()).toBe("");
      expect(git(projectRoot, "ls-files", "KEY.example.md").trim()).toBe("KEY.example.md");
    }
    // The repository's ignore rules, in a fresh repository with a key typed into KEY.md.
    const repo = await mkdtemp(join(tmpdir(), "moc-key-repo-"));
    dirs.push(repo);
    git(repo, "init", "-q");
    await copyFile(join(projectRoot, ".gitignore"), join(repo, ".gitignore"));
    await copyFile(join(projectRoot, "KEY.example.md"), join(repo, "KEY.example.md"));
    git(repo, "add", ".gitignore", "KEY.example.md");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
    ensureKeyFile(join(repo, "KEY.md"));
    await writeFile(join(repo, "KEY.md"), "OPENAI_API_KEY=sk-typed-by-the-user\n");
    expect(git(repo, "status", "--porcelain")).toBe("");
    git(repo, "add", "-A");
    expect(git(repo, "diff", "--cached", "--name-only")).toBe("");
  });
});
