/** KEY.md's settings in force are snapshots: a save puts new ones in force and leaves the ones a request holds alone. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import { saveKeySettings } from "./key-settings.js";

describe("KEY.md's settings in force", () => {
  let dir: string;
  let keyFile: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "key-settings-"));
    keyFile = join(dir, "KEY.md");
    await writeFile(keyFile, "OPENAI_BASE_URL=http://old.example/v1\nOPENAI_API_KEY=sk-old-key-0123456789\nMODEL_WORK_API_KEY=sk-work-0123456789\n");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("a save replaces the snapshots whole: one taken before keeps the old endpoint with the old key", async () => {
    const config = loadConfig({}, keyFile);
    const before = { model: config.model, embedding: config.embedding, keys: config.profileKeys };
    await saveKeySettings(config, { OPENAI_BASE_URL: "http://new.example/v1", OPENAI_API_KEY: "sk-new-key-0123456789", MODEL_WORK_API_KEY: "", EMBEDDING_MODEL: "embed-1" });

    expect(before.model).toMatchObject({ baseUrl: "http://old.example/v1", apiKey: "sk-old-key-0123456789" });
    expect(before.keys).toEqual({ MODEL_WORK_API_KEY: "sk-work-0123456789" });
    expect(before.embedding.model).toBeNull();
    expect(config.model).toMatchObject({ baseUrl: "http://new.example/v1", apiKey: "sk-new-key-0123456789" });
    expect(config.profileKeys).toEqual({});
    expect(config.embedding.model).toBe("embed-1");
    expect(await readFile(keyFile, "utf8")).toContain("OPENAI_BASE_URL=http://new.example/v1");
  });

  it("the settings in force cannot be changed in place", () => {
    const config = loadConfig({}, keyFile);
    for (const snapshot of [config.model, config.embedding, config.profileKeys]) expect(Object.isFrozen(snapshot)).toBe(true);
  });

  it("a save the environment refuses changes nothing", async () => {
    const config = loadConfig({ OPENAI_MODEL: "from-env" }, keyFile);
    const model = config.model;
    await expect(saveKeySettings(config, { OPENAI_MODEL: "other", OPENAI_BASE_URL: "http://x.example/v1" })).rejects.toMatchObject({ code: "conflict" });
    expect(config.model).toBe(model);
  });
});
