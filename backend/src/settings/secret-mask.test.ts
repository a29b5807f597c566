import { describe, expect, it } from "vitest";
import { MASK, maskSecrets, maskValue, restoreSecrets } from "./secret-mask.js";
import { settingsFile } from "./settings-files.js";

const mcp = settingsFile("MCP.json")!;
// As Claude Code's and Cursor's MCP docs show it: tokens typed into headers and env directly.
const file = `{
  "mcpServers": {
    "db": { "command": "db-mcp", "env": { "DB_PASSWORD": "hunter2-db", "REGION": "\${REGION}" } },
    "github": {
      "type": "http",
      "url": "https://user:pa55@api.example.com/mcp?key=QUERYKEY&x=1",
      "headers": { "Authorization": "Bearer ghp_SECRETTOKEN", "X-Ref": "Bearer \${GITHUB_TOKEN}" }
    }
  }
}
`;

describe("credentials in a settings file", () => {
  it("are masked, formatting kept, references and schemes shown", () => {
    const shown = maskSecrets(mcp, file);
    for (const secret of ["hunter2-db", "ghp_SECRETTOKEN", "pa55", "QUERYKEY"]) expect(shown).not.toContain(secret);
    expect(shown).toContain(`"DB_PASSWORD": "${MASK}"`);
    expect(shown).toContain(`"Authorization": "Bearer ${MASK}"`);
    expect(shown).toContain('"X-Ref": "Bearer ${GITHUB_TOKEN}"');
    expect(shown).toContain('"REGION": "${REGION}"');
    expect(shown).toContain("api.example.com/mcp");
    // Only the values changed: the lines are where they were.
    expect(shown.split("\n").length).toBe(file.split("\n").length);
  });

  it("come back on a save of the masked view, and one typed anew is saved as typed", () => {
    const shown = maskSecrets(mcp, file);
    expect(restoreSecrets(mcp, shown, file)).toBe(file);
    const edited = shown.replace('"command": "db-mcp"', '"command": "db-mcp", "args": ["--ro"]').replace(`Bearer ${MASK}`, "Bearer ghp_NEWTOKEN");
    const saved = restoreSecrets(mcp, edited, file);
    expect(saved).toContain('"args": ["--ro"]');
    expect(saved).toContain("hunter2-db");
    expect(saved).toContain("Bearer ghp_NEWTOKEN");
    expect(saved).not.toContain("ghp_SECRETTOKEN");
    expect(saved).toContain("pa55");
  });

  it("a mask moved to another key does not carry the secret there", () => {
    const shown = maskSecrets(mcp, file).replace('"REGION": "${REGION}"', `"REGION": "${MASK}"`);
    expect(restoreSecrets(mcp, shown, file)).not.toMatch(/"REGION": "hunter2-db"/);
  });

  it("a file that is not JSON is not shown at all", () => {
    const broken = '{ "mcpServers": { "db": { "env": { "PW": "hunter2" ';
    expect(maskSecrets(mcp, broken)).not.toContain("hunter2");
    expect(maskValue("plain", "PW")).toBe(MASK);
  });
});
