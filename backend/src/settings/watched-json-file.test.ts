import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonFile, WatchedJsonFile } from "./watched-json-file.js";

const schema = z.object({ version: z.literal(1), names: z.array(z.string()) }).strict();
type Names = z.infer<typeof schema>;

let root = "";
let file: WatchedJsonFile<Names> | null = null;
afterEach(async () => {
  file?.close();
  file = null;
  if (root) await rm(root, { recursive: true, force: true });
});

async function open(options: { watch?: boolean } = {}) {
  root = await mkdtemp(join(tmpdir(), "watched-json-"));
  let changes = 0;
  file = new WatchedJsonFile<Names>({
    dataRoot: root,
    name: "NAMES.json",
    maxBytes: 1024,
    parse: (text) => {
      const parsed = parseJsonFile("NAMES.json", text, schema);
      if ("problem" in parsed) return parsed;
      return new Set(parsed.value.names).size === parsed.value.names.length ? parsed : { problem: "NAMES.json: a name is there twice" };
    },
    missing: { version: 1, names: [] },
    lastGood: "the last good names stay in use",
    log: { warn() {} },
    onChange: () => changes++,
    watch: options.watch ?? false,
  });
  await file.start();
  return { file, changes: () => changes, path: join(root, "NAMES.json") };
}

describe("WatchedJsonFile", () => {
  it("a missing file is the default; a good one is the value; a broken one is reported and the last good value stays", async () => {
    const { file, path, changes } = await open();
    expect(file.value).toEqual({ version: 1, names: [] });
    await writeFile(path, JSON.stringify({ version: 1, names: ["ada"] }));
    await file.reload();
    expect(file.value.names).toEqual(["ada"]);
    expect(changes()).toBe(1);

    await writeFile(path, "{ not json");
    await file.reload();
    expect(file.problem).toMatch(/^NAMES\.json is not valid JSON \(.+\); the last good names stay in use until it is fixed$/);
    expect(file.value.names).toEqual(["ada"]);

    await writeFile(path, JSON.stringify({ version: 1, names: ["ada"], extra: true }));
    await file.reload();
    expect(file.problem).toMatch(/^NAMES\.json: \(top\): Unrecognized key/);
    await writeFile(path, JSON.stringify({ version: 1, names: ["ada", "ada"] }));
    await file.reload();
    expect(file.problem).toMatch(/^NAMES\.json: a name is there twice;/);
    await writeFile(path, JSON.stringify({ version: 1, names: ["bo"] }));
    await file.reload();
    expect([file.problem, file.value.names]).toEqual([null, ["bo"]]);
  });

  it("never reads through a link or past its cap: each is a problem, and the value stays", async () => {
    const { file, path } = await open();
    await writeFile(join(root, "elsewhere.json"), JSON.stringify({ version: 1, names: ["linked"] }));
    await symlink(join(root, "elsewhere.json"), path);
    await file.reload();
    expect(file.problem).toMatch(/^NAMES\.json cannot be read/);
    expect(file.value.names).toEqual([]);
    await rm(path);
    await writeFile(path, JSON.stringify({ version: 1, names: ["x".repeat(2000)] }));
    await file.reload();
    expect(file.problem).toMatch(/^NAMES\.json cannot be read/);
  });

  it("writes one at a time, atomically; refuses (409) while the file is broken and leaves it as the user wrote it", async () => {
    const { file, path } = await open();
    await Promise.all([file.write((v) => ({ ...v, names: [...v.names, "a"] })), file.write((v) => ({ ...v, names: [...v.names, "b"] }))]);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ version: 1, names: ["a", "b"] });
    await expect(file.write(() => { throw new Error("refused by the caller"); })).rejects.toThrow("refused by the caller");
    await writeFile(path, "{ broken");
    await file.reload();
    await expect(file.write((v) => v)).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/^NAMES\.json is not valid JSON .*: fix the file first/) });
    expect(await readFile(path, "utf8")).toBe("{ broken");
  });

  it("follows the file when watched", async () => {
    const { file, path } = await open({ watch: true });
    await writeFile(path, JSON.stringify({ version: 1, names: ["seen"] }));
    for (let i = 0; i < 100 && file.value.names[0] !== "seen"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(file.value.names).toEqual(["seen"]);
  });
});
