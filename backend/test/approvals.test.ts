/**
 * Approvals through the real workbench, with the sandbox: a governed call pauses its turn until the
 * user decides (over HTTP, from the page's own origin), a rule decides, the clock runs out or Stop.
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalRequestEvent, ApprovalsReply, ChatEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { fetchSession, postJson, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const exists = (path: string) => access(path).then(() => true, () => false);
const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
/** A model that makes `calls` one per step, then answers with what the tools said. */
const callsThenAnswer = (calls: Array<{ name: string; args: Record<string, unknown> }>) => (body: ChatRequestBody) => {
  const done = toolResults(body);
  return done.length < calls.length ? { toolCalls: [calls[done.length]] } : { content: `Done: ${done.join(" | ")}` };
};

/** Starts a streamed turn and reads it up to the first event that `until` accepts. */
async function startTurn(wb: Workbench, message: string, until: (e: ChatEvent) => boolean, signal?: AbortSignal) {
  const response = await postJson(`${wb.url}/api/chat`, { message, stream: true }, { signal });
  const stream = sseEvents(response);
  const seen: ChatEvent[] = [];
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error(`the turn ended first: ${JSON.stringify(seen)}`);
    seen.push(value);
    if (until(value)) break;
  }
  const rest = async () => {
    for await (const event of stream) seen.push(event);
    return seen;
  };
  return { seen, rest };
}
const isRequest = (e: ChatEvent): e is ApprovalRequestEvent => e.type === "approval_request";
const decide = (wb: Workbench, id: string, body: unknown, origin: string | null = wb.url) =>
  fetch(`${wb.url}/api/approvals/${id}`, { method: "POST", headers: { "content-type": "application/json", ...(origin ? { origin } : {}) }, body: JSON.stringify(body) });
const policy = (tools: Record<string, unknown>, timeout = 600) =>
  JSON.stringify({
    version: 1,
    timeout_seconds: timeout,
    tools: { terminal: { mode: "ask-unlisted", allow: [], deny: [] }, python_repl: { mode: "ask-unlisted", allow: [], deny: [] }, fetch_url: { mode: "off" }, delegate: { mode: "off" }, ...tools },
  });

describe.skipIf(!sandboxExpected().available)("approvals", () => {
  it("an ask call pauses with no process started until approved; the decision is in the session", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/made-by-call" } }]) });
    const marker = join(wb.dataRoot, "workspace/made-by-call");
    const turn = await startTurn(wb, "make the file", isRequest);
    const request = turn.seen.at(-1) as ApprovalRequestEvent;
    expect(request).toMatchObject({ tool: "terminal", subject: "touch workspace/made-by-call", proposal: "touch workspace/made-by-call", sandbox: expect.stringContaining("bubblewrap") });
    await new Promise((r) => setTimeout(r, 400));
    expect(await exists(marker)).toBe(false);
    const pending = (await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply;
    expect(pending.pending).toMatchObject([{ id: request.id, session_id: expect.any(String), tool: "terminal" }]);

    expect((await decide(wb, request.id, { decision: "approve" })).status).toBe(200);
    const events = await turn.rest();
    expect(events.find((e) => e.type === "approval")).toMatchObject({ id: request.id, decision: "approved", by: "user" });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true });
    expect(await exists(marker)).toBe(true);
    const sessionId = (events[0] as { session_id: string }).session_id;
    const stored = storedEvents((await fetchSession(wb.url, sessionId)).entries).filter((e) => e.type.startsWith("approval"));
    expect(stored.map((e) => e.type)).toEqual(["approval_request", "approval"]);
  });

  it("deny: nothing runs and the model reads the reason", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/denied" } }]) });
    const turn = await startTurn(wb, "make it", isRequest);
    await decide(wb, (turn.seen.at(-1) as ApprovalRequestEvent).id, { decision: "deny", reason: "not on a Friday" });
    const events = await turn.rest();
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: false });
    expect(toolResults(wb.model.requests[1].body)[0]).toContain("the user denied it. Their reason: not on a Friday");
    expect(await exists(join(wb.dataRoot, "workspace/denied"))).toBe(false);
  });

  it("an allow rule lets the matching command through and only it; a deny rule beats a broader allow", async () => {
    wb = await startWorkbench({
      env: { APPROVALS: "on" },
      script: callsThenAnswer([
        { name: "terminal", args: { command: "echo allowed-by-rule" } },
        { name: "terminal", args: { command: "git push --force origin main" } },
        { name: "terminal", args: { command: "echo fine; touch workspace/sneaky" } },
      ]),
    });
    await writeFile(join(wb.dataRoot, "APPROVALS.json"), policy({ terminal: { mode: "ask-unlisted", allow: ["echo", "git"], deny: ["git push --force"] } }));
    const turn = await startTurn(wb, "go", isRequest);
    const [echo, push] = turn.seen.filter((e) => e.type === "tool_result");
    expect(echo).toMatchObject({ ok: true, output: expect.stringContaining("allowed-by-rule") });
    expect(push).toMatchObject({ ok: false, output: expect.stringContaining('it matches the deny rule "git push --force"') });
    expect(turn.seen.filter((e) => e.type === "approval").map((e) => e.type === "approval" && [e.by, e.decision, e.rule])).toEqual([
      ["rule", "approved", "echo"],
      ["rule", "denied", "git push --force"],
    ]);
    // `echo fine; touch ...` is not only echo: it asks.
    expect((turn.seen.at(-1) as ApprovalRequestEvent).subject).toBe("echo fine; touch workspace/sneaky");
    await decide(wb, (turn.seen.at(-1) as ApprovalRequestEvent).id, { decision: "deny" });
    await turn.rest();
    expect(await exists(join(wb.dataRoot, "workspace/sneaky"))).toBe(false);
  });

  it("a broken APPROVALS.json fails closed: every call asks, even `ls`; the file stays as written; health names it", async () => {
    for (const [broken, says] of [
      ['{ "version": 1, "tools": { "terminal": ', /not valid JSON/],
      [policy({ terminal: { mode: "sometimes", allow: ["ls"], deny: [] } }), /tools\.terminal\.mode/],
    ] as const) {
      wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "ls" } }]) });
      await writeFile(join(wb.dataRoot, "APPROVALS.json"), broken);
      const turn = await startTurn(wb, "list", (e) => isRequest(e) || e.type === "tool_result");
      expect(turn.seen.at(-1)).toMatchObject({ type: "approval_request", subject: "ls" });
      const health = (await (await fetch(`${wb.url}/api/health`)).json()) as { approvals: { problem: string | null } };
      expect(health.approvals.problem).toMatch(/^APPROVALS\.json/);
      expect(health.approvals.problem).toMatch(says);
      expect(((await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply).problem).toMatch(says);
      expect(await readFile(join(wb.dataRoot, "APPROVALS.json"), "utf8")).toBe(broken);
      const sessionId = turn.seen[0].type === "session" ? turn.seen[0].session_id : "";
      await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {});
      await turn.rest();
      await wb.close();
      wb = undefined;
    }
  });

  it("Always allow adds the rule to APPROVALS.json; the next matching call runs without asking", async () => {
    wb = await startWorkbench({
      env: { APPROVALS: "on" },
      script: callsThenAnswer([{ name: "terminal", args: { command: "expr 1 + 1" } }, { name: "terminal", args: { command: "expr 2 + 2" } }]),
    });
    const turn = await startTurn(wb, "add", isRequest);
    expect((turn.seen.at(-1) as ApprovalRequestEvent).proposal).toBe("expr");
    await decide(wb, (turn.seen.at(-1) as ApprovalRequestEvent).id, { decision: "always", rule: "expr" });
    const events = await turn.rest();
    expect(events.filter(isRequest)).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool_result").map((e) => e.type === "tool_result" && e.ok)).toEqual([true, true]);
    const reply = (await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply;
    expect(reply.policy.tools.terminal.allow).toContain("expr");
  });

  it("a pending approval is in the session while it waits (a reload shows it) and times out to a denial", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "python_repl", args: { code: "open('workspace/late','w').write('x')" } }]) });
    await writeFile(join(wb.dataRoot, "APPROVALS.json"), policy({}, 1));
    const turn = await startTurn(wb, "write it", isRequest);
    const sessionId = (turn.seen[0] as { session_id: string }).session_id;
    const reloaded = await fetchSession(wb.url, sessionId);
    expect(reloaded.running).toBe(true);
    expect(storedEvents(reloaded.entries).find(isRequest)).toMatchObject({ id: (turn.seen.at(-1) as ApprovalRequestEvent).id });
    const events = await turn.rest();
    expect(events.find((e) => e.type === "approval")).toMatchObject({ decision: "denied", by: "timeout" });
    expect(toolResults(wb.model.requests[1].body)[0]).toContain("nobody approved it within 1 s");
    expect(await exists(join(wb.dataRoot, "workspace/late"))).toBe(false);
  });

  it("the turn outlives its page while an approval waits (a reload), and Stop from any page ends it", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/stopped" } }]) });
    const abort = new AbortController();
    const turn = await startTurn(wb, "do it", isRequest, abort.signal);
    const sessionId = (turn.seen[0] as { session_id: string }).session_id;
    abort.abort(); // the page reloads: its stream goes
    await new Promise((r) => setTimeout(r, 500));
    expect((await fetchSession(wb.url, sessionId)).running).toBe(true);
    expect(((await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply).pending).toHaveLength(1);

    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(200);
    await expect.poll(async () => (await fetchSession(wb!.url, sessionId)).running, { timeout: 5000 }).toBe(false);
    expect(((await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply).pending).toEqual([]);
    const stored = storedEvents((await fetchSession(wb.url, sessionId)).entries);
    expect(stored.find((e) => e.type === "approval")).toMatchObject({ decision: "denied", by: "stop" });
    expect(stored.at(-1)).toMatchObject({ type: "error", code: "aborted" });
    expect(await exists(join(wb.dataRoot, "workspace/stopped"))).toBe(false);
    expect(wb.model.requests).toHaveLength(1);
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(409);
  });

  it("a decision made after the page went away lets the turn finish, recorded in the session", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/later" } }]) });
    const abort = new AbortController();
    const turn = await startTurn(wb, "do it", isRequest, abort.signal);
    const sessionId = (turn.seen[0] as { session_id: string }).session_id;
    abort.abort();
    await new Promise((r) => setTimeout(r, 300));
    await decide(wb, (turn.seen.at(-1) as ApprovalRequestEvent).id, { decision: "approve" });
    await expect.poll(async () => (await fetchSession(wb!.url, sessionId)).running, { timeout: 5000 }).toBe(false);
    expect(storedEvents((await fetchSession(wb.url, sessionId)).entries).at(-1)).toMatchObject({ type: "final", content: expect.stringContaining("Done") });
    expect(await exists(join(wb.dataRoot, "workspace/later"))).toBe(true);
  });

  it("a sub-agent's call asks too, under its delegate call", async () => {
    wb = await startWorkbench({
      env: { APPROVALS: "on" },
      script: (body) => {
        const results = toolResults(body);
        if (systemPromptOf(body).startsWith('You are the "analyst" sub-agent')) {
          return results.length === 0 ? { toolCalls: [{ name: "python_repl", args: { code: "6 * 7" } }] } : { content: `analyst: ${results[0]}` };
        }
        return results.length === 0 ? { toolCalls: [{ name: "delegate", args: { agent: "analyst", task: "compute 6*7" } }] } : { content: `main: ${results[0]}` };
      },
    });
    const turn = await startTurn(wb, "ask the analyst", (e) => e.type === "delegate" && e.event.type === "approval_request");
    const nested = turn.seen.at(-1) as Extract<ChatEvent, { type: "delegate" }>;
    expect(nested.event).toMatchObject({ type: "approval_request", tool: "python_repl", subject: "6 * 7" });
    await decide(wb, (nested.event as ApprovalRequestEvent).id, { decision: "approve" });
    const events = await turn.rest();
    expect(events.at(-1)).toMatchObject({ type: "final", content: expect.stringContaining("42") });
  });

  it("no approval is granted without the page's own origin: none, another site's, a look-alike", async () => {
    wb = await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/x" } }]) });
    const turn = await startTurn(wb, "go", isRequest);
    const id = (turn.seen.at(-1) as ApprovalRequestEvent).id;
    for (const origin of [null, "http://evil.example", "null", `${wb.url}.evil.example`]) {
      const response = await decide(wb, id, { decision: "approve" }, origin);
      expect({ origin, status: response.status }).toEqual({ origin, status: 403 });
    }
    expect(await exists(join(wb.dataRoot, "workspace/x"))).toBe(false);
    expect(((await (await fetch(`${wb.url}/api/approvals`)).json()) as ApprovalsReply).pending).toHaveLength(1);
    await decide(wb, id, { decision: "deny" });
    await turn.rest();
  });

  it("with APPROVALS=off everything runs as before, and nothing is recorded about approvals", async () => {
    wb = await startWorkbench({ script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/unattended" } }]) });
    const turn = await startTurn(wb, "go", (e) => e.type === "final");
    expect(turn.seen.some((e) => e.type.startsWith("approval"))).toBe(false);
    expect(await exists(join(wb.dataRoot, "workspace/unattended"))).toBe(true);
  });
});

describe.skipIf(!sandboxExpected().available)("the policy file is out of the tools' reach", () => {
  it("terminal and python_repl can neither read nor change APPROVALS.json", async () => {
    wb = await startWorkbench({
      script: callsThenAnswer([
        { name: "terminal", args: { command: "cat APPROVALS.json; echo '{\"version\":1}' > APPROVALS.json; ls -a" } },
        { name: "python_repl", args: { code: "import os\ntry:\n    open('APPROVALS.json','w').write('{}')\nexcept Exception as e:\n    print(type(e).__name__)\nprint(os.listdir('.'))" } },
      ]),
    });
    const before = await import("node:fs/promises").then((fs) => fs.readFile(join(wb!.dataRoot, "APPROVALS.json"), "utf8"));
    expect(JSON.parse(before).tools.terminal.mode).toBe("ask-unlisted");
    const turn = await startTurn(wb, "change your permissions", (e) => e.type === "final");
    const [shell] = turn.seen.filter((e) => e.type === "tool_result");
    expect(shell.type === "tool_result" && shell.output).not.toContain("ask-unlisted");
    expect(await import("node:fs/promises").then((fs) => fs.readFile(join(wb!.dataRoot, "APPROVALS.json"), "utf8"))).toBe(before);
  });
});

const runningAsRoot = typeof process.getuid === "function" && process.getuid() === 0;

describe.skipIf(!sandboxExpected().available || !runningAsRoot)("tools with network cannot use the workbench's own API", () => {
  it("with SANDBOX_NETWORK=on, a tool's request to the API is refused whatever Origin it sends; the browser's still works", async () => {
    let url = "";
    wb = await startWorkbench({
      env: { SANDBOX_NETWORK: "on" },
      script: (body) => {
        const done = toolResults(body).length;
        if (done > 0) return { content: "tried" };
        const code = [
          "import json, urllib.request",
          "def call(method, path, body):",
          `    req = urllib.request.Request("${url}" + path, data=None if body is None else json.dumps(body).encode(), method=method, headers={"content-type": "application/json", "origin": "${url}"})`,
          "    try:",
          "        return urllib.request.urlopen(req, timeout=5).status",
          "    except urllib.error.HTTPError as e:",
          "        return e.code",
          'print("model", call("PUT", "/api/model", {"base_url": "http://attacker.invalid/v1", "model": "x"}))',
          'print("file", call("POST", "/api/files", {"path": "memory/MEMORY.md", "content": "owned"}))',
          // Reads too: the pending calls of every session are not the sandbox's to see.
          'print("approvals", call("GET", "/api/approvals", None))',
          'print("health", call("GET", "/api/health", None))',
        ].join("\n");
        return { toolCalls: [{ name: "python_repl", args: { code } }] };
      },
    });
    url = wb.url;
    const turn = await startTurn(wb, "change your settings", (e) => e.type === "final");
    const result = turn.seen.find((e) => e.type === "tool_result");
    expect(result?.type === "tool_result" && result.output).toMatch(/model 403\s+file 403\s+approvals 403\s+health 403/);
    const model = (await (await fetch(`${wb.url}/api/model`)).json()) as { base_url: string | null };
    expect(model.base_url).not.toContain("attacker");
    expect(await import("node:fs/promises").then((fs) => fs.readFile(join(wb!.dataRoot, "memory/MEMORY.md"), "utf8"))).not.toBe("owned");
    // The page's own requests (same machine, the server's user) still go through.
    expect((await postJson(`${wb.url}/api/files`, { path: "memory/MEMORY.md", content: "# Memory\nmine\n" }, { headers: { "content-type": "application/json", origin: wb.url } })).status).toBe(200);
  });
});
