import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assemblePrompt, TRUNCATION_MARK } from "./assemble-prompt.js";

let root: string;
const files: Record<string, string> = {
  "SKILLS_SNAPSHOT.md": "<available_skills>\n</available_skills>\n",
  "workspace/SOUL.md": "soul",
  "workspace/IDENTITY.md": "identity",
  "workspace/USER.md": "user",
  "workspace/AGENTS.md": "agents",
  "memory/MEMORY.md": "memory",
};

async function write(overrides: Record<string, string> = {}) {
  for (const [path, content] of Object.entries({ ...files, ...overrides })) await writeFile(join(root, path), content);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "moc-prompt-"));
  await mkdir(join(root, "workspace"));
  await mkdir(join(root, "memory"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("assemblePrompt", () => {
  it("cuts a file over the per-file limit and reports raw and injected sizes", async () => {
    await write({ "workspace/USER.md": "u".repeat(500) });
    const prompt = await assemblePrompt(root, ".", { promptFileChars: 100, promptBudgetChars: 100_000 });
    const user = prompt.sections.find((s) => s.name === "USER.md")!;
    expect(user).toMatchObject({ truncated: true, raw_chars: 500, missing: false });
    expect(prompt.text).toContain(`${"u".repeat(100)}\n${TRUNCATION_MARK}\n[USER.md is cut here: 100 of 500 characters shown. The full file is ./workspace/USER.md`);
    expect(prompt.text).not.toContain("u".repeat(101));
  });

  it("over the total budget, MEMORY.md gives way first, then AGENTS.md, and SKILLS/SOUL/IDENTITY last", async () => {
    await write({
      "workspace/SOUL.md": "s".repeat(3000),
      "workspace/IDENTITY.md": "i".repeat(3000),
      "workspace/AGENTS.md": "a".repeat(3000),
      "memory/MEMORY.md": "m".repeat(3000),
    });
    const prompt = await assemblePrompt(root, ".", { promptFileChars: 20_000, promptBudgetChars: 9500 });
    const byName = Object.fromEntries(prompt.sections.map((s) => [s.name, s]));
    expect(prompt.totalChars).toBeLessThanOrEqual(9500);
    expect(byName["MEMORY.md"].truncated).toBe(true);
    expect(byName["MEMORY.md"].injected_chars).toBeLessThan(300); // only the note is left
    expect(byName["AGENTS.md"].truncated).toBe(true);
    for (const name of ["SKILLS_SNAPSHOT.md", "SOUL.md", "IDENTITY.md", "USER.md"]) expect(byName[name].truncated).toBe(false);
  });

  it("is a pure function of the files: same files, same bytes", async () => {
    await write();
    const a = await assemblePrompt(root, "./backend", { promptFileChars: 20_000, promptBudgetChars: 60_000 });
    const b = await assemblePrompt(root, "./backend", { promptFileChars: 20_000, promptBudgetChars: 60_000 });
    expect(b.text).toBe(a.text);
    expect(a.text).toContain('<file name="SOUL.md" path="./backend/workspace/SOUL.md">\nsoul\n</file>');
  });

  it("names a missing file as missing", async () => {
    await write();
    await rm(join(root, "memory/MEMORY.md"));
    const prompt = await assemblePrompt(root, ".", { promptFileChars: 20_000, promptBudgetChars: 60_000 });
    expect(prompt.sections.find((s) => s.name === "MEMORY.md")).toMatchObject({ missing: true, raw_chars: 0 });
    expect(prompt.text).toContain('<file name="MEMORY.md" path="./memory/MEMORY.md" missing="true">');
  });
});
