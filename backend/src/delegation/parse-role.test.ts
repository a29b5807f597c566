import { describe, expect, it } from "vitest";
import { parseRole } from "./parse-role.js";

describe("parseRole", () => {
  it("reads name, description, tools (core tools and delegate), model and the instructions", () => {
    const parsed = parseRole("---\nname: coder\ndescription: Writes code.\ntools: [terminal, delegate, teleport]\nmodel: small-model\n---\nWrite tests first.\n", "coder", "agents/coder.md");
    expect(parsed).toEqual({
      ok: true,
      role: {
        name: "coder",
        description: "Writes code.",
        path: "agents/coder.md",
        tools: ["terminal", "delegate"],
        model: "small-model",
        warnings: ["tools names unknown tools (ignored): teleport"],
        instructions: "Write tests first.",
      },
    });
  });

  it("says why a role cannot be used", () => {
    expect(parseRole("no frontmatter", "x", "agents/x.md")).toEqual({
      ok: false,
      reason: "The role file has no frontmatter: it must start with a '---' line, then name, description and tools",
    });
    expect(parseRole("---\nname: x\ndescription: d\n---\n\n", "x", "agents/x.md")).toEqual({
      ok: false,
      reason: "the role has no instructions: write them below the frontmatter",
    });
    expect(parseRole("---\nname: x\ndescription: d\ntools: 5\n---\nDo it.", "x", "agents/x.md")).toEqual({
      ok: false,
      reason: "'tools' must be a list of strings or a space-separated string",
    });
    expect(parseRole("---\nname: x\ndescription: d\nmodel: [a]\n---\nDo it.", "x", "agents/x.md")).toEqual({ ok: false, reason: "'model' must be a model name" });
  });
});
