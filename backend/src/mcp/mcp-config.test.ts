import { describe, expect, it } from "vitest";
import { expandVars } from "./expand-vars.js";
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, parseMcpConfig } from "./mcp-config.js";
import { MAX_TOOL_NAME, mcpRuleMatches, mcpToolName } from "../tool-names/mcp-tool-names.js";

describe("parseMcpConfig", () => {
  const env = { HOME: "/home/me", TOKEN: "t0k" };

  it("reads Claude Code's and Cursor's shapes: stdio and remote, defaults documented", () => {
    const { servers, problems } = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/notes"], env: { A: "${TOKEN}" } },
          gh: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          cursor: { url: "http://localhost:9000/sse" },
          legacy: { type: "sse", url: "http://localhost:9001/sse", startup_timeout_ms: 5000, tool_timeout_ms: 1000, disabled: true },
        },
      }),
      env,
    );
    expect(problems).toEqual([]);
    expect(servers[0]).toMatchObject({ name: "fs", transport: "stdio", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"], env: { A: "t0k" }, startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS, toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS });
    expect(servers[1]).toMatchObject({ transport: "http", headers: { Authorization: "Bearer t0k" } });
    expect(servers[2]).toMatchObject({ transport: "http", url: "http://localhost:9000/sse" });
    expect(servers[3]).toMatchObject({ transport: "sse", disabled: true, startupTimeoutMs: 5000, toolTimeoutMs: 1000 });
  });

  it("shows a server as written, never with its variables expanded or a URL's query values", () => {
    const { servers } = parseMcpConfig(
      JSON.stringify({ mcpServers: { a: { command: "gh-mcp", args: ["--token", "${TOKEN}"] }, b: { url: "https://x.example/mcp?api_key=${TOKEN}&v=2" } } }),
      env,
    );
    expect(servers.map((s) => s.display)).toEqual(["gh-mcp --token ${TOKEN}", "https://x.example/mcp?api_key=…&v=…"]);
    expect(JSON.stringify(servers.map((s) => s.display))).not.toContain("t0k");
  });

  it("reads VS Code's { servers } and warns about what it does not use", () => {
    const { servers } = parseMcpConfig(JSON.stringify({ inputs: [], servers: { git: { type: "stdio", command: "uvx", args: ["mcp-server-git"], envFile: "${workspaceFolder}/.env" } } }), env);
    expect(servers[0]).toMatchObject({ name: "git", transport: "stdio", command: "uvx", warnings: ['"envFile" is not used here'] });
  });

  it("fails a malformed entry alone, with its reason", () => {
    const { servers, problems } = parseMcpConfig(
      JSON.stringify({ mcpServers: { good: { command: "x" }, nothing: {}, badurl: { type: "http", url: "not a url" }, ftp: { url: "ftp://x" }, wrong: { command: 42 }, list: [] } }),
      env,
    );
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    expect(Object.fromEntries(problems.map((p) => [p.name, p.reason]))).toMatchObject({
      nothing: expect.stringContaining('needs "command"'),
      badurl: expect.stringContaining("is not a URL"),
      ftp: expect.stringContaining("must be http or https"),
      wrong: expect.stringContaining("command"),
      list: "the entry must be an object",
    });
  });

  it("invalid JSON and a file without a server table are one problem for the file", () => {
    expect(parseMcpConfig("{ mcpServers: ", env).problems[0]).toMatchObject({ name: null, reason: expect.stringContaining("not valid JSON") });
    expect(parseMcpConfig("{}", env).problems[0]).toMatchObject({ name: null, reason: expect.stringContaining('no "mcpServers"') });
  });
});

describe("expandVars", () => {
  it("expands ${VAR} and ${VAR:-default}, records unset names, leaves other dollars alone", () => {
    const unset = new Set<string>();
    expect(expandVars("a${X}b${Y:-dflt}c${Z}d $5 ${not closed", { X: "1" }, unset)).toBe("a1bdfltcd $5 ${not closed");
    expect([...unset]).toEqual(["Z"]);
    expect(expandVars("${1BAD} ${A-B}", {}, unset)).toBe("${1BAD} ${A-B}");
  });
});

describe("MCP tool names", () => {
  it("mcp__server__tool, unsafe characters replaced, long names shortened stably, never two alike", () => {
    const taken = new Set<string>();
    expect(mcpToolName("my server", "get.thing", taken)).toBe("mcp__my_server__get_thing");
    expect(mcpToolName("my_server", "get_thing", taken)).toMatch(/^mcp__my_server__get_thing_[0-9a-f]{8}$/);
    const long = mcpToolName("s", "x".repeat(100), new Set());
    expect(long.length).toBe(MAX_TOOL_NAME);
    expect(mcpToolName("s", "x".repeat(100), new Set())).toBe(long);
    expect(mcpToolName("s", `${"x".repeat(99)}y`, new Set())).not.toBe(long);
  });

  it("rules name a tool, or a whole server; mcp__* names none", () => {
    expect(mcpRuleMatches("mcp__gh__create_issue", "mcp__gh__create_issue", "gh")).toBe(true);
    expect(mcpRuleMatches("mcp__gh", "mcp__gh__create_issue", "gh")).toBe(true);
    expect(mcpRuleMatches("mcp__gh__*", "mcp__gh__create_issue", "gh")).toBe(true);
    expect(mcpRuleMatches("mcp__g", "mcp__gh__create_issue", "gh")).toBe(false);
    expect(mcpRuleMatches("mcp__*", "mcp__gh__create_issue", "gh")).toBe(false);
  });
});
