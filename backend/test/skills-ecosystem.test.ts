/**
 * Skill folders as the public collections write them (Anthropic's skills repository, Claude Code
 * plugins: `allowed-tools` with Claude Code's tool names and `Bash(cmd:*)`), through the real workbench.
 */
import { cp, lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent, PromptReply, SkillInstallReply, SkillsReply } from "@mini-openclaw/protocol";
import { zipSync, type Zippable } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, postJson, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

const FIXTURES = new URL("./fixtures/skills/", import.meta.url).pathname;

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const results = (events: ChatEvent[]) => events.flatMap((e) => (e.type === "tool_result" ? [e] : []));

describe("allowed-tools in Claude Code's words", () => {
  it("Read, Grep and Bash(git:*) permit read_file and git commands, and refuse everything else", async () => {
    const calls = [
      { name: "terminal", args: { command: "git --version" } },
      { name: "terminal", args: { command: "rm -f memory/MEMORY.md" } },
      { name: "terminal", args: { command: "git --version; rm -f memory/MEMORY.md" } },
      { name: "read_file", args: { path: "memory/MEMORY.md" } },
      { name: "fetch_url", args: { url: "https://example.com/" } },
    ];
    wb = await startWorkbench({ script: [...calls.map((call) => ({ toolCalls: [call] })), { content: "Done." }] });
    await mkdir(join(wb.dataRoot, "skills/git-helper"));
    await writeFile(
      join(wb.dataRoot, "skills/git-helper/SKILL.md"),
      "---\nname: git-helper\ndescription: Answers questions about the repository with git.\nallowed-tools: Read, Grep, Bash(git:*)\n---\n\nRun git to answer.\n",
    );
    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as { skills: Array<{ name: string; allowed_tools: string[]; allowed_commands?: string[]; warnings: string[] }> };
    expect(skills.skills.find((s) => s.name === "git-helper")).toMatchObject({
      allowed_tools: ["read_file", "terminal"],
      allowed_commands: ["grep", "rg", "git"],
      warnings: [],
    });

    const events = await chat(wb, "/git-helper which version?");
    expect(events.find((e) => e.type === "skill")).toMatchObject({ name: "git-helper", allowed_tools: ["read_file", "terminal"], allowed_commands: ["grep", "rg", "git"] });
    const [git, rm, chained, read, fetchCall] = results(events);
    expect(git).toMatchObject({ ok: true, output: expect.stringContaining("git version") });
    expect(rm).toMatchObject({ ok: false, output: expect.stringContaining("not allowed while the skill \"git-helper\" is active") });
    expect(chained).toMatchObject({ ok: false, details: { refused_by_skill: "git-helper" } });
    expect(read).toMatchObject({ ok: true });
    expect(fetchCall).toMatchObject({ ok: false, output: expect.stringContaining("fetch_url is not allowed") });
    // Nothing the refused commands would have done happened.
    expect(await (await fetch(`${wb.url}/api/files?path=memory/MEMORY.md`)).status).toBe(200);
  });
});

describe("skills that ship scripts", () => {
  it("OpenClaw's {baseDir} is filled in and the agent is told the skill's folder, so its script runs as the SKILL.md says", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const sent = JSON.stringify(body.messages);
        if (!sent.includes('"role":"tool"')) {
          const script = /bash (skills\/[\w-]+\/scripts\/hello\.sh)/.exec(sent)?.[1] ?? "missing";
          return { toolCalls: [{ name: "terminal", args: { command: `bash ${script} World` } }] };
        }
        return { content: "Ran it." };
      },
    });
    await mkdir(join(wb.dataRoot, "skills/hello-skill/scripts"), { recursive: true });
    await writeFile(
      join(wb.dataRoot, "skills/hello-skill/SKILL.md"),
      "---\nname: hello-skill\ndescription: Greets someone with the bundled script.\n---\n\nRun `bash {baseDir}/scripts/hello.sh <name>` and report what it prints.\n",
    );
    await writeFile(join(wb.dataRoot, "skills/hello-skill/scripts/hello.sh"), 'echo "hello, $1, from the skill script"\n');
    const events = await chat(wb, "/hello-skill World");
    const sent = JSON.stringify(wb.model.requests[0].body.messages);
    expect(sent).toContain("Base directory for this skill: skills/hello-skill");
    expect(sent).toContain("bash skills/hello-skill/scripts/hello.sh");
    expect(sent).not.toContain("{baseDir}");
    expect(results(events)[0]).toMatchObject({ ok: true, output: expect.stringContaining("hello, World, from the skill script") });

    // Read with read_file, the SKILL.md says the same.
    wb.model.setScript([{ toolCalls: [{ name: "read_file", args: { path: "skills/hello-skill/SKILL.md" } }] }, { content: "ok" }]);
    const read = results(await chat(wb, "read the hello skill"))[0];
    expect(read).toMatchObject({ ok: true, output: expect.stringMatching(/^Base directory for this skill: skills\/hello-skill\n[\s\S]*bash skills\/hello-skill\/scripts\/hello\.sh/) });
  });
});

describe("skill folders in the public collections' formats", () => {
  it("Anthropic's format (scripts/, reference/, LICENSE.txt) loads, and its bundled script runs as its SKILL.md says", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const sent = JSON.stringify(body.messages);
        const toolResults = body.messages.filter((m) => m.role === "tool").length;
        const base = /Base directory for this skill: (skills\/[\w-]+)/.exec(sent)?.[1] ?? "missing";
        // What the SKILL.md says, with the folder it was told: `python scripts/summarize.py <file>`.
        if (toolResults === 0) return { toolCalls: [{ name: "terminal", args: { command: `python ${base}/scripts/summarize.py workspace/sales.csv` } }] };
        // Its link to reference/columns.md, read as written: relative to the skill.
        if (toolResults === 1) return { toolCalls: [{ name: "read_file", args: { path: "reference/columns.md" } }] };
        return { content: "Summarized." };
      },
    });
    await cp(join(FIXTURES, "anthropic/csv-summary"), join(wb.dataRoot, "skills/csv-summary"), { recursive: true });
    await mkdir(join(wb.dataRoot, "workspace"), { recursive: true });
    await writeFile(join(wb.dataRoot, "workspace/sales.csv"), "region,units,price\nnorth,3,2.5\nsouth,5,4\n");

    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.problems).toEqual([]);
    expect(skills.skills.find((s) => s.name === "csv-summary")).toMatchObject({
      warnings: [],
      references: expect.arrayContaining(["skills/csv-summary/LICENSE.txt", "skills/csv-summary/scripts/summarize.py", "skills/csv-summary/reference/columns.md"]),
    });

    const [run, reference] = results(await chat(wb, "/csv-summary workspace/sales.csv"));
    expect(run).toMatchObject({ ok: true, output: expect.stringContaining("rows: 2\nunits: total 8, mean 4\nprice: total 6.5, mean 3.25") });
    expect(reference).toMatchObject({ ok: true, details: { path: "skills/csv-summary/reference/columns.md" } });
    expect(reference.output).toContain("[reference/columns.md is in the active skill's folder: skills/csv-summary/reference/columns.md]\n# Numeric columns");
  });

  it("OpenClaw's format (metadata.openclaw, homepage, {baseDir}) loads without warnings, and the agent runs its script after reading it", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const sent = JSON.stringify(body.messages);
        const toolResults = body.messages.filter((m) => m.role === "tool").length;
        if (toolResults === 0) {
          const location = /<name>line-count<\/name><description>[^<]*<\/description><location>([^<]+)<\/location>/.exec(systemPromptOf(body))?.[1] ?? "missing";
          return { toolCalls: [{ name: "read_file", args: { path: location } }] };
        }
        if (toolResults === 1) {
          const script = /(skills\/line-count\/scripts\/count\.sh)/.exec(sent)?.[1] ?? "missing";
          return { toolCalls: [{ name: "terminal", args: { command: `${script} workspace/notes.txt` } }] };
        }
        return { content: "Counted." };
      },
    });
    await cp(join(FIXTURES, "openclaw/line-count"), join(wb.dataRoot, "skills/line-count"), { recursive: true });
    await mkdir(join(wb.dataRoot, "workspace"), { recursive: true });
    await writeFile(join(wb.dataRoot, "workspace/notes.txt"), "one two\nthree\n");

    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.skills.find((s) => s.name === "line-count")).toMatchObject({ warnings: [], allowed_tools: null });
    const events = await chat(wb, "How many lines are in workspace/notes.txt?");
    expect(events.find((e) => e.type === "skill")).toMatchObject({ name: "line-count" });
    const [read, count] = results(events);
    expect(read.output).not.toContain("{baseDir}");
    expect(count).toMatchObject({ ok: true, output: expect.stringContaining("2 3 14 workspace/notes.txt") });
  });
});

describe("lenient loading, and slash commands", () => {
  it("a folder whose name differs from its skill's answers to both; a rejected skill's command says why", async () => {
    wb = await startWorkbench({ script: [{ content: "one" }, { content: "two" }] });
    await mkdir(join(wb.dataRoot, "skills/copied-folder"));
    await writeFile(join(wb.dataRoot, "skills/copied-folder/SKILL.md"), "---\nname: real-name\ndescription: A copied skill.\nx-custom: 1\n---\n\nSay hello.\n");
    await mkdir(join(wb.dataRoot, "skills/no-frontmatter"));
    await writeFile(join(wb.dataRoot, "skills/no-frontmatter/SKILL.md"), "# A skill without frontmatter\n");

    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.skills.find((s) => s.name === "real-name")?.warnings).toEqual([
      'name "real-name" differs from its folder "copied-folder" (/real-name and /copied-folder both load it)',
      "unknown frontmatter field ignored: x-custom",
    ]);
    for (const command of ["/real-name", "/copied-folder"]) {
      const events = await chat(wb, command);
      expect(events.find((e) => e.type === "skill")).toMatchObject({ name: "real-name" });
    }
    const rejected = await postJson(`${wb.url}/api/chat`, { message: "/no-frontmatter please" });
    expect(rejected.status).toBe(422);
    expect(((await rejected.json()) as { error: string }).error).toMatch(/^The skill \/no-frontmatter cannot be used: SKILL.md has no frontmatter.*Fix \.\/skills\/no-frontmatter\/SKILL.md/);
    expect(wb.model.requests).toHaveLength(2);
  });
});

/** `count` skills with ordinary descriptions (about 200 characters; Anthropic's run from 150 to 300). */
async function writeSkills(dataRoot: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    const description = `Handles request type ${i}: reads the files the user names, checks them against the house rules, and reports each problem found with a fix. Use when the user asks for a type ${i} review or check.`;
    await mkdir(join(dataRoot, "skills", name));
    await writeFile(join(dataRoot, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: "${description}"\n---\n\nSteps.\n`);
  }
}

describe("the skills list in the prompt", () => {
  it("150 skills of ordinary size all reach the model, whole, with the file limit untouched", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await writeSkills(wb.dataRoot, 150);
    await chat(wb, "hello");
    const listed = [...systemPromptOf(wb.model.requests[0].body).matchAll(/<skill><name>(skill-\d+)<\/name><description>([^<]+)<\/description><location>[^<]+<\/location><\/skill>/g)];
    expect(listed).toHaveLength(150);
    expect(listed.every((m) => m[2].endsWith("review or check."))).toBe(true);
    expect(systemPromptOf(wb.model.requests[0].body)).not.toContain("[truncated]");
    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.list).toMatchObject({ listed: 152, shortened: [], omitted: [] });
  });

  it("500 skills: descriptions shortened, then skills left out whole; counted in /api/skills and stated in the prompt", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await writeSkills(wb.dataRoot, 500);
    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.list.listed + skills.list.omitted.length).toBe(502);
    expect(skills.list.omitted.length).toBeGreaterThan(0);
    expect(skills.list.shortened.length).toBeGreaterThan(skills.list.listed - 3);
    expect(skills.list.chars).toBeLessThanOrEqual(skills.list.budget_chars);

    const prompt = (await (await fetch(`${wb.url}/api/prompt`)).json()) as PromptReply;
    const section = prompt.sections.find((s) => s.name === "SKILLS_SNAPSHOT.md");
    expect(section?.text).toContain(`${skills.list.shortened.length} descriptions are shortened`);
    expect(section?.text).toContain(`${skills.list.omitted.length} more skills are installed but not listed`);
    expect(section?.truncated).toBe(false);

    await chat(wb, "hello");
    const system = systemPromptOf(wb.model.requests[0].body);
    const entries = system.slice(system.indexOf("<available_skills>"), system.indexOf("</available_skills>")).split("\n").slice(1, -1);
    expect(entries).toHaveLength(skills.list.listed);
    expect(entries.every((line) => /^<skill><name>[^<]+<\/name><description>[^<]+<\/description><location>[^<]+<\/location><\/skill>$/.test(line))).toBe(true);
  });
});

const zip = (files: Zippable) => zipSync(files, { level: 6 });
const install = (wb: Workbench, bytes: Uint8Array, filename: string) =>
  fetch(`${wb.url}/api/skills/install?filename=${encodeURIComponent(filename)}`, { method: "POST", headers: { "content-type": "application/zip" }, body: bytes });
const skillFolders = async (wb: Workbench) => (await readdir(join(wb.dataRoot, "skills"))).sort();

describe("installing a skill from an archive", () => {
  it("a .skill file (one top folder, Anthropic's packaging) installs, loads, and its script keeps running", async () => {
    wb = await startWorkbench();
    const text = (path: string) => new Uint8Array(Buffer.from(path));
    const skillMd = await readFile(join(FIXTURES, "openclaw/line-count/SKILL.md"));
    const script = await readFile(join(FIXTURES, "openclaw/line-count/scripts/count.sh"));
    const response = await install(wb, zip({ "line-count/SKILL.md": skillMd, "line-count/scripts/count.sh": script, "__MACOSX/line-count/._SKILL.md": text("junk") }), "line-count.skill");
    expect(response.status).toBe(201);
    expect((await response.json()) as SkillInstallReply).toEqual({ installed: ["line-count"] });
    expect(await readFile(join(wb.dataRoot, "skills/line-count/scripts/count.sh"))).toEqual(script);
    expect((await lstat(join(wb.dataRoot, "skills/line-count/scripts/count.sh"))).mode & 0o111).not.toBe(0);
    expect(await skillFolders(wb)).not.toContain("__MACOSX");
    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(skills.skills.map((s) => s.name)).toContain("line-count");
  });

  it("a SKILL.md at the archive's top goes into a folder named by the skill; a repository download installs each skill in it", async () => {
    wb = await startWorkbench();
    const skill = (name: string) => new Uint8Array(Buffer.from(`---\nname: ${name}\ndescription: Test skill ${name}.\n---\n\nBody.\n`));
    expect(await (await install(wb, zip({ "SKILL.md": skill("top-level"), "notes/a.md": skill("x") }), "Download (3).zip")).json()).toEqual({ installed: ["top-level"] });
    expect(await readFile(join(wb.dataRoot, "skills/top-level/notes/a.md"), "utf8")).toContain("name: x");
    const repo = zip({ "skills-main/README.md": skill("readme"), "skills-main/skills/alpha/SKILL.md": skill("alpha"), "skills-main/skills/beta/SKILL.md": skill("beta"), "skills-main/skills/beta/ref/x.md": skill("r") });
    expect(await (await install(wb, repo, "skills-main.zip")).json()).toEqual({ installed: ["alpha", "beta"] });
    expect(await readFile(join(wb.dataRoot, "skills/beta/ref/x.md"), "utf8")).toContain("name: r");
  });

  it("refuses, with nothing written: a path escape, an absolute path, a zip bomb, a name that exists, not a zip, no SKILL.md", async () => {
    wb = await startWorkbench();
    const before = await skillFolders(wb);
    const skillMd = new Uint8Array(Buffer.from("---\nname: evil\ndescription: d\n---\n"));
    const cases: Array<[string, Uint8Array, number, RegExp]> = [
      ["escape", zip({ "evil/SKILL.md": skillMd, "evil/../../../MEMORY.md": skillMd }), 422, /'\.\.' in its path/],
      ["absolute", zip({ "evil/SKILL.md": skillMd, "/etc/evil": skillMd }), 422, /absolute path/],
      ["bomb", zip({ "evil/SKILL.md": skillMd, "evil/zeros.bin": new Uint8Array(70 * 1024 * 1024) }), 413, /unpacks to more than 64 MB/],
      ["exists", zip({ "get_weather/SKILL.md": skillMd }), 409, /skills\/get_weather already exists/],
      ["not a zip", new Uint8Array(Buffer.from("just text, not an archive")), 422, /no SKILL.md|not a zip/],
      ["no skill", zip({ "readme.md": skillMd }), 422, /holds no SKILL.md/],
    ];
    for (const [label, bytes, status, reason] of cases) {
      const response = await install(wb, bytes, `${label}.zip`);
      expect({ label, status: response.status }).toEqual({ label, status });
      expect(((await response.json()) as { error: string }).error).toMatch(reason);
    }
    expect(await skillFolders(wb)).toEqual(before);
    expect(await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).not.toContain("name: evil");
    expect(await readFile(join(wb.dataRoot, "skills/get_weather/SKILL.md"), "utf8")).not.toContain("name: evil");
  });

  it("a symlink entry becomes a plain file holding the link's text, never a link", async () => {
    wb = await startWorkbench();
    const skillMd = new Uint8Array(Buffer.from("---\nname: linky\ndescription: d\n---\n"));
    const link: Zippable = { "linky/SKILL.md": skillMd, "linky/secret": [new Uint8Array(Buffer.from("../../KEY.md")), { os: 3, attrs: (0o120777 << 16) >>> 0 }] };
    expect((await install(wb, zip(link), "linky.zip")).status).toBe(201);
    const stat = await lstat(join(wb.dataRoot, "skills/linky/secret"));
    expect(stat.isSymbolicLink()).toBe(false);
    expect(await readFile(join(wb.dataRoot, "skills/linky/secret"), "utf8")).toBe("../../KEY.md");
  });

  it("an archive over the size limit is a 413, and a cross-origin install is refused", async () => {
    wb = await startWorkbench();
    const big = await install(wb, new Uint8Array(21 * 1024 * 1024), "big.zip");
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toContain(`limit ${20 * 1024 * 1024} bytes`);
    const cross = await fetch(`${wb.url}/api/skills/install?filename=x.zip`, {
      method: "POST",
      headers: { "content-type": "application/zip", origin: "http://evil.example" },
      body: zip({ "x/SKILL.md": new Uint8Array(Buffer.from("---\nname: x\ndescription: d\n---\n")) }),
    });
    expect(cross.status).toBe(403);
    expect(await skillFolders(wb)).not.toContain("x");
  });
});
