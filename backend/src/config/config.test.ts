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
