import { describe, expect, it } from "vitest";
import { commandAllowed, parseAllowedTools } from "./allowed-tools.js";

describe("parseAllowedTools", () => {
  it("maps Claude Code's names, in any of the ecosystem's forms, to the core tools that serve them", () => {
    expect(parseAllowedTools("Read, Grep, Glob, Bash")).toEqual({ allowance: { tools: ["read_file", "terminal"], commands: null }, warnings: [] });
    expect(parseAllowedTools(["Read", "WebFetch", "Task"])).toEqual({ allowance: { tools: ["read_file", "fetch_url", "delegate"], commands: null }, warnings: [] });
    expect(parseAllowedTools("read_file terminal")).toEqual({ allowance: { tools: ["read_file", "terminal"], commands: null }, warnings: [] });
  });

  it("understands Bash(cmd:*): terminal limited to commands starting with cmd; Grep and Glob to their commands", () => {
    expect(parseAllowedTools("Bash(git:*), Bash(npm run test:*) Read")).toEqual({
      allowance: { tools: ["terminal", "read_file"], commands: ["git", "npm run test"] },
      warnings: [],
    });
    expect(parseAllowedTools("Grep Glob")).toEqual({ allowance: { tools: ["terminal"], commands: ["grep", "rg", "find", "ls"] }, warnings: [] });
    expect(parseAllowedTools("Bash(git:*) Bash")).toMatchObject({ allowance: { commands: null } }); // plain Bash allows every command
  });

  it("warns about names with no core equivalent and never turns the list into nothing allowed", () => {
    expect(parseAllowedTools("Read, TodoWrite, ExitPlanMode")).toEqual({
      allowance: { tools: ["read_file"], commands: null },
      warnings: ["allowed-tools names tools with no core equivalent (ignored): TodoWrite, ExitPlanMode"],
    });
    const none = parseAllowedTools("TodoWrite");
    expect("allowance" in none && none.allowance).toBeNull();
    expect("warnings" in none && none.warnings[1]).toMatch(/runs with every tool/);
    expect(parseAllowedTools(42)).toMatchObject({ error: expect.stringContaining("allowed-tools") });
  });
});

describe("commandAllowed", () => {
  it("admits the prefixed command alone, and nothing chained to it", () => {
    expect(commandAllowed("git status", ["git"])).toBe(true);
    expect(commandAllowed("  git log --oneline -5", ["git"])).toBe(true);
    expect(commandAllowed("rm x", ["git"])).toBe(false);
    expect(commandAllowed("gitx status", ["git"])).toBe(false);
    for (const sneaky of ["git status; rm x", "git status && rm x", "git log | sh", "git $(rm x)", "git `rm x`", "git status\nrm x"]) {
      expect(commandAllowed(sneaky, ["git"])).toBe(false);
    }
    expect(commandAllowed("anything; at all", null)).toBe(true);
  });

  it("refuses what approvals refuse: Bash(find:*) never admits a find that deletes, runs or writes", () => {
    const parsed = parseAllowedTools("Bash(find:*)");
    const prefixes = "allowance" in parsed ? parsed.allowance!.commands : null;
    expect(prefixes).toEqual(["find"]);
    expect(commandAllowed("find . -name '*.md'", prefixes)).toBe(true);
    for (const form of ["find . -delete", "find . -exec rm {} ;", "find . -fprint /tmp/x", "find . -execdir sh -c id ;", "find . -name x -ok rm {} ;", "find *"]) {
      expect(commandAllowed(form, prefixes), form).toBe(false);
    }
  });
});

describe("MCP names in allowed-tools", () => {
  it("keeps mcp__server__tool, mcp__server and mcp__server__* as they are; mcp__* alone names nothing", () => {
    const parsed = parseAllowedTools("Read mcp__github__create_issue mcp__notes mcp__files__* mcp__*");
    expect("allowance" in parsed && parsed.allowance?.tools).toEqual(["read_file", "mcp__github__create_issue", "mcp__notes", "mcp__files__*"]);
    expect("warnings" in parsed && parsed.warnings[0]).toMatch(/ignored\): mcp__\*/);
  });
});
