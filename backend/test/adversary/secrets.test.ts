/**
 * The agent as the adversary, after the key: everything here is planted by the real sandbox (or,
 * for hard links, from outside, as the issue found), then read by the real server process. After
 * each attack the key must be nowhere: not in a prompt, a tool result, the index, a session, the
 * log or an HTTP response.
 */
import { link, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PromptReply, SkillsReply } from "@mini-openclaw/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AttackedServer, SERVER_SECRET, startAttackedServer } from "../../test-support/adversary.js";
import { lastMessage, messageText, systemPromptOf } from "../../test-support/scripted-model-server.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";

const { available } = sandboxExpected();
if (!available) console.warn("\n!!! adversary suite: bubblewrap is missing, so the attacker runs unsandboxed (degraded); the server's side is tested all the same !!!\n");

let s: AttackedServer;

/** The model reads whatever path the test names with read_file, then answers with what it got. */
let readPath = "workspace/USER.md";
const REVIEW_CONTRACT = "Answer with one JSON object";

beforeAll(async () => {
  s = await startAttackedServer({
    script: (body) => {
      const last = lastMessage(body);
      if (systemPromptOf(body).includes(REVIEW_CONTRACT)) return { content: '{"advice": "", "record": "looked"}' };
      if (last.role === "tool") return { content: `I read: ${messageText(last.content).slice(0, 200)}` };
      if (messageText(last.content).includes("please read")) return { toolCalls: [{ name: "read_file", args: { path: readPath } }] };
      return { content: "ok" };
    },
  });
});
afterAll(async () => s?.close());
afterEach(async () => {
  expect(await s.leaks()).toEqual([]);
  expect(s.alive()).toBe(true);
  expect(await s.healthMs()).toBeLessThan(1000);
});

async function prompt(): Promise<PromptReply> {
  const reply = await s.request("/api/prompt");
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text) as PromptReply;
}

async function chatTurn(message: string): Promise<string> {
  const reply = await s.request("/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, stream: false }),
  });
  expect(reply.status).toBe(200);
  return reply.text;
}

/** Python in the sandbox that swaps `path` between a file and a link to /proc/self/environ as fast as syscalls go. */
function flipper(path: string, text: string, seconds: number): string {
  return (
    "python3 - <<'EOF'\n" +
    "import os, time\n" +
    `end, i, path = time.time() + ${seconds}, 0, '${path}'\n` +
    "while time.time() < end:\n" +
    "    i += 1\n" +
    `    with open(path + '.f', 'w') as f: f.write('${text} %d\\n' % i)\n` +
    "    os.rename(path + '.f', path)\n" +
    "    os.symlink('/proc/self/environ', path + '.l')\n" +
    "    os.rename(path + '.l', path)\n" +
    "EOF"
  );
}

async function planted(command: string) {
  const result = await s.plant(command);
  expect(result.exitCode, result.output).toBe(0);
}

describe("links into the system prompt", () => {
  it.each([
    ["workspace/USER.md", "/proc/self/environ"],
    ["workspace/SOUL.md", "KEY"],
    ["workspace/IDENTITY.md", "/etc/shadow"],
    ["memory/MEMORY.md", "/proc/self/environ"],
  ])("%s as a link to %s is refused by name, never followed", async (file, target) => {
    const to = target === "KEY" ? s.keyFile : target;
    await planted(`ln -sfn '${to}' ${file}`);
    const section = (await prompt()).sections.find((x) => x.path === file)!;
    expect(section).toMatchObject({ problem: "symlink refused", missing: false });
    expect(section.text).toMatch(/was refused \(symlink refused\)/);
    await chatTurn("hello");
    const sent = systemPromptOf(s.model.requests.at(-1)!.body);
    expect(sent).toContain(`<file name="${file.split("/")[1]}" path="./${file}" unreadable="true">`);
    expect(sent).not.toMatch(/^root:|PATH=/m);
  });

  it("a folder on the way swapped for a link is refused too", async () => {
    await planted("mkdir -p memory/real && echo fine > memory/real/note.md && ln -sfn /proc/self memory/mid");
    expect((await s.request("/api/files?path=memory/mid/environ")).status).toBe(403);
    expect((await s.request("/api/files?path=memory/real/note.md")).text).toContain("fine");
  });

  it("read_file through a planted link answers an error to the model", async () => {
    readPath = "workspace/USER.md";
    const reply = await chatTurn("please read the user file");
    expect(reply).toContain("symlink refused");
  });
});

describe("hard links planted from outside", () => {
  it("are refused by the file API, the prompt and read_file", async () => {
    await link(s.keyFile, join(s.dataRoot, "memory/notes.md"));
    const api = await s.request("/api/files?path=memory/notes.md");
    expect(api.status).toBe(403);
    expect(api.text).toMatch(/hard link refused/);
    readPath = "memory/notes.md";
    expect(await chatTurn("please read the notes")).toMatch(/hard link refused/);
    await planted("rm -f workspace/AGENTS.md");
    await link(s.keyFile, join(s.dataRoot, "workspace/AGENTS.md"));
    expect((await prompt()).sections.find((x) => x.name === "AGENTS.md")).toMatchObject({ problem: "hard link refused" });
  });
});

describe("skills, roles and the reviewer", () => {
  it("a linked skill folder outside the data root is reported, never listed, and its SKILL.md never reaches the model", async () => {
    const outside = join(s.dataRoot, "..", "outside-skill");
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, "SKILL.md"), `---\nname: evil\ndescription: OUTSIDE SKILL ${SERVER_SECRET}\n---\nOUTSIDE BODY\n`);
    await planted(`ln -sfn '${outside}' skills/evil`);
    const skills = JSON.parse((await s.request("/api/skills")).text) as SkillsReply;
    expect(skills.skills.map((x) => x.name)).not.toContain("evil");
    expect(skills.problems).toContainEqual(expect.objectContaining({ folder: "evil", reason: expect.stringMatching(/symlink refused/) }));
    const slash = await s.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "/evil now", stream: false }),
    });
    expect(slash.text).not.toContain("OUTSIDE BODY");
  });

  it("a SKILL.md that is a link, and a role file that is a link, are problems with their reason", async () => {
    await planted("mkdir -p skills/spy && ln -sfn /proc/self/environ skills/spy/SKILL.md && ln -sfn /proc/self/environ agents/spy.md");
    const skills = JSON.parse((await s.request("/api/skills")).text) as SkillsReply;
    expect(skills.problems).toContainEqual(expect.objectContaining({ folder: "spy", reason: expect.stringMatching(/symlink refused/) }));
    const agents = await s.request("/api/agents");
    expect(agents.text).toMatch(/agents\/spy\.md[^}]*symlink refused/);
  });

  it("REVIEWER.md as a link: the review runs on the default instructions", async () => {
    await planted("ln -sfn /proc/self/environ workspace/REVIEWER.md");
    await s.request("/api/reviewer", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: true }) });
    const before = s.model.requests.length;
    await chatTurn("review me");
    await expect.poll(() => s.model.requests.slice(before).some((r) => systemPromptOf(r.body).includes(REVIEW_CONTRACT)), { timeout: 10_000 }).toBe(true);
    await s.request("/api/reviewer", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: false }) });
  });
});

describe("the knowledge index", () => {
  it("a document flipped between a file and a link to /proc/self/environ never puts the key into the index", async () => {
    // Flip for about 8 s while the server indexes (every 2 s, and on each search).
    const flipping = s.plant(flipper("knowledge/flip.md", "cabbage notes", 8), 60_000);
    for (let i = 0; i < 60; i++) {
      await s.request("/api/knowledge/search?q=cabbage%20PATH%20OPENAI&k=5");
      await new Promise((r) => setTimeout(r, 120));
    }
    expect((await flipping).exitCode).toBe(0);
    const status = JSON.parse((await s.request("/api/knowledge/status")).text) as { documents: number };
    expect(status.documents).toBeGreaterThanOrEqual(0);
  });

  it("a linked folder inside knowledge/ is skipped with its reason", async () => {
    await planted("ln -sfn /proc/self knowledge/proc && ln -sfn /etc knowledge/etc");
    await expect
      .poll(async () => JSON.parse((await s.request("/api/knowledge/status")).text).skipped as Array<{ path: string; reason: string }>, { timeout: 8000 })
      .toEqual(expect.arrayContaining([{ path: "knowledge/proc", reason: "symlink refused" }, { path: "knowledge/etc", reason: "symlink refused" }]));
  });
});

describe("a file swapped during reads", () => {
  it("the file API gives the file or a refusal, never what a link points to", async () => {
    const flipping = s.plant(flipper("memory/flip.md", "plain", 4), 60_000);
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) statuses.add((await s.request("/api/files?path=memory/flip.md")).status);
    await flipping;
    expect([...statuses].every((code) => code === 200 || code === 403 || code === 404)).toBe(true);
  });

  it("names with newlines and odd characters are listed and indexed without harm", async () => {
    await planted("printf 'sauerkraut line\\n' > \"$(printf 'knowledge/evil\\nname.md')\" && printf 'x' > 'memory/a \"quoted\" <b>.md'");
    const list = await s.request("/api/files/list");
    expect(list.status).toBe(200);
    await expect.poll(async () => (await s.request("/api/knowledge/search?q=sauerkraut&k=3")).text, { timeout: 8000 }).toContain("evil\\nname.md");
  });
});
