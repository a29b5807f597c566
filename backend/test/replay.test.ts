/**
 * Replay and compare (issue 54) over real HTTP with two scripted OpenAI-compatible servers: a turn
 * with two tool calls run again on another profile with its tools answered from the record, or live
 * under approvals; with today's prompt after SOUL.md changed; the compare reply and the prompt diff.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalsReply, CompareReply, PromptDiff, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText, type ModelScript, type ScriptedModelServer, startScriptedModelServer, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, jsonOf, postJson, sessionIdOf, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let other: ScriptedModelServer | undefined;
afterEach(async () => {
  await wb?.close();
  await other?.close();
  wb = undefined;
  other = undefined;
});

const TWO_CALLS = [
  { id: "call_soul", name: "read_file", args: { path: "workspace/SOUL.md" } },
  { id: "call_user", name: "read_file", args: { path: "workspace/USER.md" } },
];
const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
/** Calls the two tools, then answers with `answer` (and what it was given). */
const caller = (answer: string, calls: Array<{ id: string; name: string; args: unknown }> = TWO_CALLS): ModelScript => (body) => {
  const last = body.messages.at(-1)!;
  if (last.role === "user" && messageText(last.content).startsWith("Read")) return { toolCalls: calls, usage: { prompt_tokens: 1000, completion_tokens: 10 } };
  if (last.role === "tool") return { content: `${answer} (${toolResults(body).length} results)`, usage: { prompt_tokens: 1200, completion_tokens: 20 } };
  return { content: "Hello.", usage: { prompt_tokens: 500, completion_tokens: 5 } };
};
const replay = (sessionId: string, turn: number, body: unknown) => postJson(`${wb!.url}/api/sessions/${sessionId}/turns/${turn}/replay`, body);
async function finished(sessionId: string): Promise<SessionDetail> {
  await expect.poll(async () => (await fetchSession(wb!.url, sessionId)).running, { timeout: 10_000 }).toBe(false);
  return fetchSession(wb!.url, sessionId);
}

/** A workbench on server A (default) with profile "b" on server B (priced), and a session: "Hi", then a turn with two tool calls. */
async function twoTurns(scriptB: ModelScript, env: Record<string, string> = {}) {
  other = await startScriptedModelServer(scriptB);
  wb = await startWorkbench({ script: caller("A answered"), env });
  expect((await fetch(`${wb.url}/api/models/b`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ base_url: other.baseUrl, model: "model-b", prices: { input: 2, output: 8 } }) })).status).toBe(200);
  const sessionId = sessionIdOf(await chat(wb, "Hi"));
  await chat(wb, "Read my soul and my user file, please.", sessionId);
  return sessionId;
}

describe("replaying a turn", () => {
  it("on profile B with recorded tools: B gets the same history and the recorded results, no tool runs, the original session is unchanged", async () => {
    const sessionId = await twoTurns(caller("B answered"));
    const file = join(wb!.dataRoot, "sessions", `${sessionId}.jsonl`);
    const before = await readFile(file, "utf8");
    const aRequests = wb!.model.requests.filter((r) => toolResults(r.body).length > 0);
    // Changed since: a live read would see it, the recorded one must not.
    await writeFile(join(wb!.dataRoot, "workspace/USER.md"), "# User\nChanged after the turn.\n");

    const started = await replay(sessionId, 2, { profile: "b", tools: "recorded", prompt: "original" });
    expect(started.status).toBe(202);
    const { session_id: replayId, turn, replay_of: replayOf } = (await started.json()) as { session_id: string; turn: number; replay_of: unknown };
    expect(turn).toBe(2);
    expect(replayOf).toEqual({ session_id: sessionId, turn: 2, profile: "b", prompt: "original", tools: "recorded" });
    const replayed = await finished(replayId);

    // B was sent what A was: the same system prompt, the same history, and (after its calls) the recorded results.
    const [first, second] = other!.requests.map((r) => r.body);
    const aFirst = wb!.model.requests.find((r) => messageText(r.body.messages.at(-1)!.content).startsWith("Read"))!.body;
    expect(systemPromptOf(first)).toBe(systemPromptOf(aFirst));
    expect(first.messages.slice(1).map((m) => [m.role, messageText(m.content)])).toEqual(aFirst.messages.slice(1).map((m) => [m.role, messageText(m.content)]));
    expect(toolResults(second)).toEqual(toolResults(aRequests[0].body));
    expect(toolResults(second).join("\n")).not.toContain("Changed after the turn");
    const results = replayed.entries.flatMap((e) => (e.type === "event" && e.event.type === "tool_result" ? [e.event] : []));
    expect(results.map((r) => r.details?.replayed)).toEqual([true, true]);
    expect(replayed.entries.findLast((e) => e.type === "event" && e.event.type === "final")).toMatchObject({ event: { content: "B answered (2 results)" } });
    // Listed as a replay; the original untouched.
    const listed = await jsonOf<{ sessions: Array<{ id: string; replay_of?: unknown; title: string }> }>(fetch(`${wb!.url}/api/sessions`));
    expect(listed.sessions.find((s) => s.id === replayId)).toMatchObject({ replay_of: replayOf, title: expect.stringMatching(/^Replay of "Hi", turn 2$/) });
    expect(await readFile(file, "utf8")).toBe(before);

    // The compare reply: both answers, the tool calls' differences, tokens and cost.
    const compared = await jsonOf<CompareReply>(fetch(`${wb!.url}/api/compare?runs=${sessionId}:2,${replayId}:2`));
    expect(compared.runs.map((r) => [r.answer, r.profile, r.input_tokens, r.output_tokens])).toEqual([
      ["A answered (2 results)", "default", 2200, 30],
      ["B answered (2 results)", "b", 2200, 30],
    ]);
    expect(compared.runs[0].cost).toBeNull();
    expect(compared.runs[1].cost).toBeCloseTo((2200 * 2 + 30 * 8) / 1e6, 9);
    expect(compared.runs[1].tool_calls.map((c) => c.replayed)).toEqual([true, true]);
    expect(compared.tool_calls).toEqual([[{ name: "read_file", status: "same" }, { name: "read_file", status: "same" }]]);
    expect(compared.prompts[0].sections.every((s) => s.status === "same")).toBe(true);
  });

  it("a call the original never made is answered 'not recorded'; with live tools the tool runs and approvals ask", async () => {
    const terminal = [{ id: "call_term", name: "terminal", args: { command: "echo replayed > workspace/replayed.txt" } }];
    const sessionId = await twoTurns(caller("B answered", terminal), { APPROVALS: "on" });
    await writeFile(join(wb!.dataRoot, "APPROVALS.json"), JSON.stringify({ version: 1, timeout_seconds: 600, tools: { terminal: { mode: "ask", allow: [], deny: [] } } }));

    const refused = (await (await replay(sessionId, 2, { profile: "b" })).json()) as { session_id: string };
    const notRecorded = await finished(refused.session_id);
    const result = notRecorded.entries.find((e) => e.type === "event" && e.event.type === "tool_result");
    expect(result).toMatchObject({ event: { ok: false, output: expect.stringMatching(/^Not recorded/) } });
    await expect(readFile(join(wb!.dataRoot, "workspace/replayed.txt"), "utf8")).rejects.toThrow();

    const live = (await (await replay(sessionId, 2, { profile: "b", tools: "live" })).json()) as { session_id: string };
    let pending: ApprovalsReply["pending"] = [];
    await expect.poll(async () => (pending = (await jsonOf<ApprovalsReply>(fetch(`${wb!.url}/api/approvals`))).pending).length, { timeout: 10_000 }).toBe(1);
    expect(pending[0]).toMatchObject({ session_id: live.session_id, tool: "terminal" });
    expect((await postJson(`${wb!.url}/api/approvals/${pending[0].id}`, { decision: "approve" }, { headers: { "content-type": "application/json", origin: wb!.url } })).status).toBe(200);
    await finished(live.session_id);
    expect(await readFile(join(wb!.dataRoot, "workspace/replayed.txt"), "utf8")).toBe("replayed\n");
    const changes = await jsonOf<{ calls: Array<{ tool: string; files: Array<{ path: string }> }> }>(fetch(`${wb!.url}/api/sessions/${live.session_id}/changes`));
    expect(changes.calls).toMatchObject([{ tool: "terminal", files: [{ path: "workspace/replayed.txt" }] }]);
  });

  it("with today's prompt after SOUL.md was edited: the prompt diff names SOUL.md and its lines; the original prompt is sent again as it was", async () => {
    const sessionId = await twoTurns(caller("B answered"));
    await appendFile(join(wb!.dataRoot, "workspace/SOUL.md"), "\nAlways answer in French.\n");
    const today = (await (await replay(sessionId, 2, { profile: "b", prompt: "today" })).json()) as { session_id: string };
    await finished(today.session_id);
    expect(systemPromptOf(other!.requests[0].body)).toContain("Always answer in French.");
    const compared = await jsonOf<CompareReply>(fetch(`${wb!.url}/api/compare?runs=${sessionId}:2,${today.session_id}:2`));
    const soul = compared.prompts[0].sections.find((s) => s.name === "SOUL.md")!;
    expect(soul).toMatchObject({ status: "changed", path: "workspace/SOUL.md" });
    expect(soul.lines).toContainEqual({ kind: "added", text: "Always answer in French." });
    expect(compared.prompts[0].sections.filter((s) => s.status !== "same").map((s) => s.name)).toEqual(["SOUL.md"]);

    const original = (await (await replay(sessionId, 2, { profile: "b", prompt: "original" })).json()) as { session_id: string };
    await finished(original.session_id);
    expect(systemPromptOf(other!.requests.at(-2)!.body)).not.toContain("Always answer in French.");

    // Between two turns of one session: what changed in what the model saw.
    await chat(wb!, "Hi again", sessionId);
    const diff = await jsonOf<PromptDiff>(fetch(`${wb!.url}/api/sessions/${sessionId}/prompt-diff?from=2&to=3`));
    expect(diff.sections.find((s) => s.name === "SOUL.md")).toMatchObject({ status: "changed" });
    expect(diff.history).toEqual({ before: 1, after: 2 });
  });

  it("says what cannot be replayed: a turn not there, a profile deleted since, a prompt not kept", async () => {
    const sessionId = await twoTurns(caller("B answered"));
    expect((await replay(sessionId, 9, {})).status).toBe(404);
    expect((await replay("no-such-session", 1, {})).status).toBe(404);
    expect((await replay(sessionId, 2, { profile: "nope" })).status).toBe(409);
    const onB = (await (await replay(sessionId, 2, { profile: "b" })).json()) as { session_id: string };
    await finished(onB.session_id);
    expect((await fetch(`${wb!.url}/api/models/b`, { method: "DELETE" })).status).toBe(200);
    const gone = await replay(onB.session_id, 2, {});
    expect(gone.status).toBe(409);
    expect(((await gone.json()) as { error: string }).error).toMatch(/The profile this turn ran on, "b", no longer exists\. Choose one of: default/);
    // A turn from before prompts were kept: "original" refused with what to do; the default falls back to today's.
    await writeFile(join(wb!.dataRoot, "storage/prompts/sessions", `${sessionId}.jsonl`), "");
    const notKept = await replay(sessionId, 2, { prompt: "original" });
    expect(notKept.status).toBe(409);
    expect(((await notKept.json()) as { error: string }).error).toMatch(/Replay it with today's prompt/);
    expect(((await (await replay(sessionId, 2, {})).json()) as { replay_of: { prompt: string } }).replay_of.prompt).toBe("today");
    expect((await fetch(`${wb!.url}/api/compare?runs=${sessionId}:2`)).status).toBe(400);
  });
});
