/**
 * Skill folders as the public collections write them (Anthropic's skills repository, Claude Code
 * plugins: `allowed-tools` with Claude Code's tool names and `Bash(cmd:*)`), through the real workbench.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { chat, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

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
