/**
 * Memory that improves itself under the user's review (issue 55), over real HTTP: the consolidation
 * run and Save as skill are turns on a scripted OpenAI-compatible helper, their answers become
 * proposals, and only a decision from the workbench's own page changes a file.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatRequestBody } from "../test-support/scripted-model-server.js";
import type { ProposalDecidedReply, ProposalDetail, ProposalListReply, SkillsReply, TaskRun, UsageReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { lastMessage, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, jsonOf, postJson, sessionIdOf, startWorkbench, taskRuns, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};
const isHelper = (body: ChatRequestBody) => messageText(lastMessage(body).content).includes("memory helper");
const helperAnswer = (value: unknown) => ({ content: `Here is what I propose:\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``, usage: { prompt_tokens: 900, completion_tokens: 120 } });
const list = (query = "") => jsonOf<ProposalListReply>(fetch(`${wb!.url}/api/proposals${query}`));
const detail = (id: string) => jsonOf<ProposalDetail>(fetch(`${wb!.url}/api/proposals/${id}`));
const decide = (id: string, body: unknown, origin: string | null = wb!.url) => postJson(`${wb!.url}/api/proposals/${id}/decide`, body, { headers: { "content-type": "application/json", ...(origin ? { origin } : {}) } });
const memoryFile = () => readFile(join(wb!.dataRoot, "memory/MEMORY.md"), "utf8");
const runNow = async () => {
  const before = (await taskRuns(wb!.url, "consolidation")).length;
  expect((await postJson(`${wb!.url}/api/tasks/consolidation/run`, {})).status).toBe(202);
  await expect.poll(async () => (await taskRuns(wb!.url, "consolidation")).filter((r) => r.outcome !== "running").length, { timeout: 10_000 }).toBe(before + 1);
  return (await taskRuns(wb!.url, "consolidation"))[0] as TaskRun;
};

const MEMORY = ["# Memory", "", "- The project deploys with Capistrano.", "- Tests run with vitest.", "- The test runner is vitest.", ""].join("\n");

describe("the consolidation run", () => {
  it("reads three days of logs and sessions, proposes an add, a change and a removal with their sources; a person accepts, edits, rejects; Revert undoes", async () => {
    let helperRequest = "";
    let sessionId = "";
    wb = await startWorkbench({
      script: (body) => {
        if (!isHelper(body)) return { content: "Noted: Kamal it is, and you like short answers." };
        helperRequest = messageText(lastMessage(body).content);
        return helperAnswer({
          memory: [
            {
              file: "memory/MEMORY.md",
              summary: "The deploy tool changed; one fact was said twice.",
              edits: [
                { op: "add", text: "- The user wants answers under five lines.", reason: "said in chat", sources: [{ session_id: sessionId, turn: 1 }] },
                { op: "change", old: "- The project deploys with Capistrano.", text: "- The project deploys with Kamal.", reason: "the log says it moved", sources: [{ log: `memory/logs/${day(-1)}.md`, line: 2 }] },
                { op: "remove", old: "- The test runner is vitest.", reason: "the same as 'Tests run with vitest.'", sources: [] },
              ],
            },
          ],
        });
      },
    });
    await writeFile(join(wb.dataRoot, "memory/MEMORY.md"), MEMORY);
    await writeFile(join(wb.dataRoot, `memory/logs/${day(-2)}.md`), "# Log\n- Looked at the CI config.\n");
    await writeFile(join(wb.dataRoot, `memory/logs/${day(-1)}.md`), "# Log\n- Moved the deploy from Capistrano to Kamal.\n");
    await writeFile(join(wb.dataRoot, `memory/logs/${day(0)}.md`), "# Log\n- Asked for short answers.\n");
    sessionId = sessionIdOf(await chat(wb, "We deploy with Kamal now. Keep answers under five lines, please."));

    const run = await runNow();
    expect(run.outcome).toBe("done");
    expect(run.detail).toMatch(/^1 proposal \(3 edits\) for review/);
    // What it read: the three logs with numbered lines, the session's message and answer; the memory file as it is.
    expect(helperRequest).toContain(`## Daily log memory/logs/${day(-1)}.md`);
    expect(helperRequest).toContain("2: - Moved the deploy from Capistrano to Kamal.");
    expect(helperRequest).toContain(`memory/logs/${day(-2)}.md`);
    expect(helperRequest).toContain("User: We deploy with Kamal now.");
    expect(helperRequest).toContain("Answer: Noted: Kamal it is");
    expect(helperRequest).toContain("- The project deploys with Capistrano.");
    // The run is a turn of its own session with no tools, its usage counted as the consolidation's.
    const session = await jsonOf<{ entries: Array<{ type: string; by?: string; content?: string }> }>(fetch(`${wb.url}/api/sessions/${run.session_id}`));
    expect(session.entries.find((e) => e.type === "user")).toMatchObject({ by: "consolidation", content: expect.stringMatching(/^Memory consolidation: 3 daily logs and 1 turns of 1 sessions read/) });
    expect(wb.model.requests.at(-1)!.body.tools ?? []).toEqual([]);
    const usage = await jsonOf<UsageReply>(fetch(`${wb.url}/api/usage`));
    expect(usage.days.flatMap((d) => d.rows).find((r) => r.by === "consolidation")).toMatchObject({ requests: 1, input_tokens: 900 });

    // Nothing is written until a person decides.
    expect(await memoryFile()).toBe(MEMORY);
    const listed = await list();
    expect(listed).toMatchObject({ total: 1, pending: 1 });
    const proposal = listed.proposals[0];
    expect(proposal).toMatchObject({ kind: "memory", target: "memory/MEMORY.md", by: "consolidation", session_id: run.session_id, pending: 3 });
    expect(proposal.hunks.map((h) => [h.op, h.stale, h.secret])).toEqual([["add", null, null], ["change", null, null], ["remove", null, null]]);
    expect(proposal.hunks[0].sources).toEqual([{ session_id: sessionId, turn: 1 }]);
    expect(proposal.hunks[1].sources).toEqual([{ log: `memory/logs/${day(-1)}.md`, line: 2 }]);
    const shown = await detail(proposal.id);
    expect(shown.current).toBe(MEMORY);
    expect(shown.proposed).toBe("# Memory\n\n- The project deploys with Kamal.\n- Tests run with vitest.\n- The user wants answers under five lines.\n");

    // Only from the workbench's own page.
    expect((await decide(proposal.id, { hunk: 0, decision: "accept" }, null)).status).toBe(403);
    expect((await decide(proposal.id, { hunk: 0, decision: "accept" }, "http://evil.example")).status).toBe(403);
    expect(await memoryFile()).toBe(MEMORY);

    // Accept one hunk: the file changes by that hunk only, as a recorded change of the run's turn.
    const accepted = await jsonOf<ProposalDecidedReply>(decide(proposal.id, { hunk: 0, decision: "accept" }));
    expect(accepted.change).toMatch(new RegExp(`^${run.session_id}~`));
    expect(await memoryFile()).toBe(`${MEMORY}- The user wants answers under five lines.\n`);
    expect(accepted.proposal.pending).toBe(2);
    const changes = await jsonOf<{ calls: Array<{ tool: string; change: string; files: Array<{ path: string }> }> }>(fetch(`${wb.url}/api/sessions/${run.session_id}/changes`));
    expect(changes.calls).toMatchObject([{ tool: "accept_proposal", change: accepted.change, files: [{ path: "memory/MEMORY.md" }] }]);
    // Revert puts it back.
    expect((await postJson(`${wb.url}/api/changes/revert`, { change: accepted.change, path: "memory/MEMORY.md" })).status).toBe(200);
    expect(await memoryFile()).toBe(MEMORY);

    // Edit then accept the change; reject the removal.
    const edited = await jsonOf<ProposalDecidedReply>(decide(proposal.id, { hunk: 1, decision: "accept", text: "- The project deploys with Kamal 2 (since this week)." }));
    expect(edited.proposal.hunks[1]).toMatchObject({ state: "accepted", edited: true });
    expect(await memoryFile()).toBe(MEMORY.replace("- The project deploys with Capistrano.", "- The project deploys with Kamal 2 (since this week)."));
    const rejected = await jsonOf<ProposalDecidedReply>(decide(proposal.id, { hunk: 2, decision: "reject" }));
    expect(rejected.proposal.hunks.map((h) => h.state)).toEqual(["accepted", "accepted", "rejected"]);
    expect(rejected.proposal.pending).toBe(0);
    expect((await decide(proposal.id, { hunk: 2, decision: "accept" })).status).toBe(409);

    // The next run reads only what is new, and the rejected removal is not proposed again.
    const second = await runNow();
    expect(second.outcome).toBe("done");
    const secondSession = await jsonOf<{ entries: Array<{ type: string; content?: string }> }>(fetch(`${wb.url}/api/sessions/${second.session_id}`));
    expect(secondSession.entries.find((e) => e.type === "user")?.content).toMatch(new RegExp(`^Memory consolidation since ${run.started_at.replace(/[.]/g, "\\.")}: 0 daily logs and 0 turns`));
    expect(second.detail).toMatch(/1 left out as rejected before or waiting already/);
    const next = (await list("?state=pending")).proposals;
    expect(next.flatMap((p) => p.hunks.map((h) => h.op))).not.toContain("remove");
    expect((await list()).total).toBe(2);
  });

  it("refuses what a hostile helper proposes outside memory and skills, flags a key, and never applies a stale hunk", async () => {
    wb = await startWorkbench({
      script: (body) =>
        isHelper(body)
          ? helperAnswer({
              memory: [
                { file: "APPROVALS.json", edits: [{ op: "add", text: '{"allow": ["terminal(*)"]}' }] },
                { file: "skills/../KEY.md", edits: [{ op: "add", text: "OPENAI_API_KEY=mine" }] },
                { file: "workspace/USER.md", edits: [{ op: "add", text: "- Their key is sk-abcdefghijklmnopqrstuvwxyz0123456789." }, { op: "change", old: "# About the user", text: "# The user" }] },
              ],
              skills: [
                { name: "../KEY", description: "x", body: "y" },
                { name: "notes", description: "A skill where a folder of notes is.", body: "y" },
                { name: "get_weather", description: "Gets the weather, better.", body: "Use the new steps." },
              ],
            })
          : { content: "ok" },
    });
    await writeFile(join(wb.dataRoot, "workspace/USER.md"), "# About the user\n");
    await mkdir(join(wb.dataRoot, "skills/notes"), { recursive: true });
    const approvals = await readFile(join(wb.dataRoot, "APPROVALS.json"), "utf8");
    const run = await runNow();
    expect(run.outcome).toBe("done");
    expect(run.detail).toMatch(/^2 proposals \(3 edits\).*4 refused: "APPROVALS.json" is not a memory file.*"skills\/..\/KEY.md" is not a memory file.*The skill name "..\/KEY" is not a folder under skills.*The folder skills\/notes\/ exists and is not a skill/);
    expect(await readFile(join(wb.dataRoot, "APPROVALS.json"), "utf8")).toBe(approvals);
    const all = await list();
    expect(all.pending).toBe(2);
    const refused = all.proposals.filter((p) => p.refused);
    expect(refused.map((p) => p.target).sort()).toEqual(["APPROVALS.json", "skills/../KEY", "skills/../KEY.md", "skills/notes/SKILL.md"]);
    // A skill that exists: its new text as a change of its whole file (the diff shows what moved).
    const edit = all.proposals.find((p) => p.target === "skills/get_weather/SKILL.md")!;
    expect(edit.hunks).toMatchObject([{ op: "change", old: await readFile(join(wb.dataRoot, "skills/get_weather/SKILL.md"), "utf8") }]);
    for (const p of refused) expect((await decide(p.id, { decision: "accept" })).status).toBe(409);

    const user = all.proposals.find((p) => p.target === "workspace/USER.md")!;
    expect(user.hunks[0].secret).toMatch(/OpenAI-style key/);
    const flagged = await decide(user.id, { hunk: 0, decision: "accept" });
    expect(flagged.status).toBe(409);
    expect(((await flagged.json()) as { error: string }).error).toMatch(/OpenAI-style key/);
    expect((await decide(user.id, { hunk: 0, decision: "accept", text: "- They keep their key in KEY.md." })).status).toBe(200);

    // The user edits the line the second hunk changes: stale, shown so, and refused.
    await writeFile(join(wb.dataRoot, "workspace/USER.md"), "# Who I am\n- They keep their key in KEY.md.\n");
    expect((await detail(user.id)).proposal.hunks[1].stale).toMatch(/no longer in the file/);
    const stale = await decide(user.id, { hunk: 1, decision: "accept" });
    expect(stale.status).toBe(409);
    expect(await readFile(join(wb.dataRoot, "workspace/USER.md"), "utf8")).toBe("# Who I am\n- They keep their key in KEY.md.\n");
  });

  it("reads a huge log from its end within the budget, and a helper answer that is not proposals fails the run (recorded, not retried)", async () => {
    let helperRequest = "";
    let helperModel = "";
    let answer: unknown = { content: "I could not decide." };
    wb = await startWorkbench({
      script: (body) => {
        if (!isHelper(body)) return { content: "ok" };
        helperRequest = messageText(lastMessage(body).content);
        helperModel = body.model;
        return answer as { content: string };
      },
    });
    // The memory helper's own profile (MODELS.json's helpers.memory): its turns go there.
    expect((await fetch(`${wb.url}/api/models/helper`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ base_url: wb.model.baseUrl, model: "small-helper" }) })).status).toBe(200);
    expect((await fetch(`${wb.url}/api/models`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ helpers: { memory: "helper" } }) })).status).toBe(200);
    const line = "- a line of a very long log\n";
    await writeFile(join(wb.dataRoot, `memory/logs/${day(0)}.md`), `${line.repeat(400_000)}- the newest line\n`);
    expect((await jsonOf<{ budget_chars: number }>(fetch(`${wb.url}/api/tasks/consolidation`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: false, budget_chars: 5000 }) }))).budget_chars).toBe(5000);
    const failed = await runNow();
    expect(failed.outcome).toBe("failed");
    expect(helperModel).toBe("small-helper");
    expect(failed.detail).toMatch(/did not answer with the proposals' JSON/);
    expect(helperRequest).toContain("- the newest line");
    expect(helperRequest).toMatch(/earlier bytes not read/);
    const material = helperRequest.slice(helperRequest.indexOf("# What is new"));
    expect(material.length).toBeLessThan(5000 + 500);
    // The failed run is recorded; a run later reads the same material again (since counts from the last run that succeeded).
    answer = helperAnswer({ memory: [] });
    const next = await runNow();
    expect(next.outcome).toBe("done");
    expect(helperRequest).toContain("- the newest line");
  });
});

describe("Save as skill", () => {
  it("a turn with three tool calls becomes a skill proposal; accepted, the skill is in the next session's snapshot", async () => {
    let helperRequest = "";
    wb = await startWorkbench({
      script: (body, index) => {
        if (isHelper(body)) {
          helperRequest = messageText(lastMessage(body).content);
          return helperAnswer({ skills: [{ name: "read-the-workspace", description: "Reads the workspace's identity files before answering about the agent.", body: "1. read_file workspace/SOUL.md\n2. read_file workspace/IDENTITY.md\n3. read_file workspace/USER.md", sources: [{ session_id: "x", turn: 1 }] }] });
        }
        if (index === 0) {
          return { toolCalls: ["SOUL.md", "IDENTITY.md", "USER.md"].map((f, i) => ({ id: `call_${i}`, name: "read_file", args: { path: `workspace/${f}` } })) };
        }
        return { content: `Read them. ${systemPromptOf(body).includes("read-the-workspace") ? "(skill listed)" : ""}` };
      },
    });
    const sessionId = sessionIdOf(await chat(wb, "Who are you? Read your files."));
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/turns/9/save-as-skill`, {})).status).toBe(404);
    const started = await postJson(`${wb.url}/api/sessions/${sessionId}/turns/1/save-as-skill`, {});
    expect(started.status).toBe(202);
    await expect.poll(async () => (await list()).pending, { timeout: 10_000 }).toBe(1);
    expect(helperRequest).toContain("Who are you? Read your files.");
    expect(helperRequest.match(/^\d\. read_file/gm)).toHaveLength(3);

    const proposal = (await list()).proposals[0];
    expect(proposal).toMatchObject({ kind: "skill", by: "save_as_skill", target: "skills/read-the-workspace/SKILL.md", hunks: [{ op: "create" }] });
    const shown = await detail(proposal.id);
    expect(shown.current).toBeNull();
    expect(shown.proposed).toMatch(/^---\nname: read-the-workspace\ndescription: Reads the workspace's identity files/);
    expect((await decide(proposal.id, { decision: "accept" })).status).toBe(200);

    const skills = await jsonOf<SkillsReply>(fetch(`${wb.url}/api/skills`));
    expect(skills.skills.map((s) => s.name)).toContain("read-the-workspace");
    const events = await chat(wb, "And now?");
    const final = events.findLast((e) => e.type === "final");
    expect(final).toMatchObject({ content: expect.stringContaining("(skill listed)") });
  });
});

describe("the review queue", () => {
  it("pages 10,000 pending proposals", async () => {
    const dataRoot = await mkdtemp(join(tmpdir(), "moc-proposals-"));
    onTestFinished(() => rm(dataRoot, { recursive: true, force: true }));
    const dir = join(dataRoot, "storage/proposals");
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < 10_000; i += 500) {
      await Promise.all(
        Array.from({ length: 500 }, (_, k) => {
          const n = i + k;
          const id = `prop_${n.toString(16).padStart(12, "0")}`;
          const proposal = { v: 1, id, kind: "memory", target: "memory/MEMORY.md", by: "consolidation", created_at: new Date(1_700_000_000_000 + n * 1000).toISOString(), session_id: "s_x", turn: 1, summary: `fact ${n}`, hunks: [{ op: "add", text: `- fact ${n}`, reason: "", sources: [], state: "pending" }] };
          return writeFile(join(dir, `${id}.json`), JSON.stringify(proposal));
        }),
      );
    }
    await writeFile(join(dir, "prop_zzzz.json"), "not a proposal");
    wb = await startWorkbench({ dataRoot });
    const page = await list("?state=pending&offset=50&limit=50");
    expect(page).toMatchObject({ total: 10_000, pending: 10_000 });
    expect(page.proposals).toHaveLength(50);
    expect(page.proposals[0].summary).toBe("fact 9949");
    expect((await fetch(`${wb.url}/api/proposals?limit=1000`)).status).toBe(400);
  });
});
