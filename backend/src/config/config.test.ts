import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isModelConfigured, loadConfig, locationPrefixFor } from "./config.js";
import { parseKeyFile } from "./key-file.js";
import { backendDir, projectRoot } from "./project-paths.js";

describe("KEY.md", () => {
  it("reads KEY=value lines and ignores the Markdown around them", () => {
    const text = [
      "# Model credentials",
      "Fill in the values below.",
      "OPENAI_API_KEY=sk-abc",
      'OPENAI_BASE_URL="http://localhost:11434/v1"',
      "OPENAI_MODEL=qwen3 # a comment",
      "EMBEDDING_MODEL=",
      "  - not a key = line",
    ].join("\n");
    expect(parseKeyFile(text)).toEqual({
      OPENAI_API_KEY: "sk-abc",
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_MODEL: "qwen3",
      EMBEDDING_MODEL: "",
    });
  });

  it("the environment overrides KEY.md, and empty values count as unset", async () => {
    const dir = await mkdtemp(join(tmpdir(), "moc-key-"));
    const keyFile = join(dir, "KEY.md");
    await writeFile(keyFile, "OPENAI_API_KEY=from-file\nOPENAI_MODEL=file-model\nPORT=9000\nFETCH_ALLOWLIST=a.local, b.local:8080\n");
    const config = loadConfig({ OPENAI_MODEL: "env-model", PORT: "" }, keyFile);
    expect(config.model).toMatchObject({ apiKey: "from-file", model: "env-model" });
    expect(config.port).toBe(9000);
    expect(config.fetchAllowlist).toEqual(["a.local", "b.local:8080"]);
    await rm(dir, { recursive: true, force: true });
  });

  it("defaults: 127.0.0.1:8002, data root backend/, no model", () => {
    const config = loadConfig({}, "/nonexistent/KEY.md");
    expect(config).toMatchObject({ host: "127.0.0.1", port: 8002, dataRoot: backendDir, locationPrefix: "./backend" });
    expect(isModelConfigured(config.model)).toBe(false);
  });

  it("rejects a PORT that is not a number", () => {
    expect(() => loadConfig({ PORT: "eighty" }, "/nonexistent/KEY.md")).toThrow(/PORT must be/);
  });

  it("locations are relative to the project when the data root is inside it, else to the data root", () => {
    expect(locationPrefixFor(backendDir)).toBe("./backend");
    expect(locationPrefixFor(join(projectRoot, "data", "main"))).toBe("./data/main");
    expect(locationPrefixFor("/srv/elsewhere")).toBe(".");
  });
});

describe("the knowledge store setting", () => {
  it("reads KNOWLEDGE_STORE_URL from KEY.md, with a collection and a lease; bad values are refused without repeating the password", async () => {
    const dir = await mkdtemp(join(tmpdir(), "moc-key-"));
    const keyFile = join(dir, "KEY.md");
    await writeFile(keyFile, "KNOWLEDGE_STORE_URL=postgres://kb:pa55-word@db.internal:5433/team\nKNOWLEDGE_COLLECTION=team_docs\n");
    expect(loadConfig({ KNOWLEDGE_LEASE_MS: "5000" }, keyFile).knowledgeStore).toEqual({ url: "postgres://kb:pa55-word@db.internal:5433/team", collection: "team_docs", leaseMs: 5000 });
    expect(loadConfig({}, "/nonexistent/KEY.md").knowledgeStore).toBeNull();
    expect(() => loadConfig({ KNOWLEDGE_STORE_URL: "mysql://kb:pa55-word@db/team" }, "/nonexistent/KEY.md")).toThrow(/must start with postgres:\/\/ \(it starts with mysql:\/\/\)$/);
    expect(() => loadConfig({ KNOWLEDGE_STORE_URL: "pa55-word" }, "/nonexistent/KEY.md")).toThrow(/^KNOWLEDGE_STORE_URL is not a URL \(expected postgres:\/\/user:password@host:5432\/database\)$/);
    expect(() => loadConfig({ KNOWLEDGE_COLLECTION: "Team Docs" }, keyFile)).toThrow(/KNOWLEDGE_COLLECTION "Team Docs" must be/);
    await rm(dir, { recursive: true, force: true });
  });
});
