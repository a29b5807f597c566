import { describe, expect, it } from "vitest";
import { parseSkill } from "./parse-skill.js";

describe("parseSkill", () => {
  it("reads name, description, tags and allowed-tools", () => {
    const parsed = parseSkill("---\nname: demo\ndescription: Does a thing\ntags: [a, b]\nallowed-tools: read_file fetch_url\n---\nBody\n", "demo");
    expect(parsed).toEqual({
      ok: true,
      skill: { name: "demo", description: "Does a thing", tags: ["a", "b"], allowed_tools: ["read_file", "fetch_url"], warnings: [] },
      body: "Body\n",
    });
  });

  it.each([
    ["no frontmatter", "# Just text", "x", /no frontmatter/],
    ["invalid YAML", "---\nname: [x\n---\n", "x", /not valid YAML/],
    ["no name, in a folder whose name cannot be one", "---\ndescription: d\n---\n", "my skill", /no 'name', and the folder name "my skill" cannot/],
    ["no description and no text", "---\nname: x\n---\n\n# Title only\n", "x", /missing 'description' and the skill has no text/],
    ["a name with a slash, in a folder with a space", "---\nname: a/b\ndescription: d\n---\n", "a b", /'name' must be/],
    ["allowed-tools of the wrong type", "---\nname: x\ndescription: d\nallowed-tools: {a: 1}\n---\n", "x", /allowed-tools/],
  ])("reports %s", (_label, text, folder, reason) => {
    const parsed = parseSkill(text, folder);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it("loads what the public collections write, with warnings: no name, no description, unknown fields, odd tags", () => {
    const parsed = parseSkill("---\nlicense: MIT\nwhen-to-use: often\ntags: {a: 1}\nargument-hint: '[file]'\n---\n\n# PDF\n\nFill PDF forms.\nAnd more.\n\n## Steps\n", "pdf-forms");
    expect(parsed).toMatchObject({ ok: true, skill: { name: "pdf-forms", description: "Fill PDF forms. And more.", tags: [] } });
    expect(parsed.ok && parsed.skill.warnings).toEqual([
      `frontmatter has no 'name': the skill goes by its folder name "pdf-forms"`,
      "frontmatter has no 'description': its first paragraph is used",
      "unknown frontmatter field ignored: when-to-use",
      "'tags' must be a list of strings or a space-separated string; tags ignored",
    ]);
    const badName = parseSkill("---\nname: My Skill\ndescription: d\n---\n", "my-skill");
    expect(badName).toMatchObject({ ok: true, skill: { name: "my-skill" } });
  });

  it("warns (and still loads) on a name that differs from the folder and on unknown tools", () => {
    const parsed = parseSkill("---\nname: other\ndescription: d\nallowed-tools: [read_file, rm_rf]\n---\n", "folder");
    expect(parsed.ok && parsed.skill.warnings).toEqual([
      'name "other" differs from its folder "folder" (/other and /folder both load it)',
      "allowed-tools names tools with no core equivalent (ignored): rm_rf",
    ]);
    expect(parsed.ok && parsed.skill.allowed_tools).toEqual(["read_file"]);
  });

  it("loads a description over 1,024 characters with a warning (public skills have them)", () => {
    const description = "Build apps with the Claude API. ".repeat(34).trim(); // 1,087 characters
    const parsed = parseSkill(`---\nname: claude-api\ndescription: ${description}\n---\n`, "claude-api");
    expect(parsed.ok && parsed.skill.warnings).toEqual([`'description' is ${description.length} characters, over the 1024 the Agent Skills format allows`]);
  });

  it("sees an edit to the same file (no stale frontmatter cache)", () => {
    parseSkill("---\nname: x\ndescription: one\n---\n", "x");
    const second = parseSkill("---\nname: x\ndescription: two\n---\n", "x");
    expect(second.ok && second.skill.description).toBe("two");
  });
});

