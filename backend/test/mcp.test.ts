/**
 * MCP servers as the agent's tools, through the real workbench: the reference servers from the
 * registry (`server-everything` over stdio and Streamable HTTP, `server-filesystem` from a VS Code
 * shaped file) and the scripted model over real HTTP. Fault tests with scripted servers are in
 * mcp-faults.test.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalRequestEvent, ApprovalsReply, ChatEvent, HealthReply, PromptReply, ToolCallEvent } from "@mini-openclaw/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test-support/free-port.js";
import { callsThenAnswer, connected, everything, filesystem, mcpState, resultsOf, rootWith, scriptedMcpServer, toolMessages, waitForMcp } from "../test-support/mcp-harness.js";
import { messageText } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

describe("MCP over stdio: server-everything", () => {
  it("offers the server's tools with their schemas, runs a call, and the model reads its result", async () => {
    const dataRoot = await rootWith({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__everything__echo", args: { message: "hello from the test" } }]) });
    const state = await waitForMcp(wb, connected("everything"));
    const server = state.servers[0];
    expect(server).toMatchObject({ transport: "stdio", source: "MCP.json", restarts: 0, reason: null });
    expect(server.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-env"]));
    expect(server.tools.find((t) => t.name === "echo")).toMatchObject({ exposed_as: "mcp__everything__echo", read_only: true });

    const events = await chat(wb, "echo something");
    const request = wb.model.requests[0].body;
    const echo = request.tools?.find((t) => t.function.name === "mcp__everything__echo");
    expect(echo?.function.description).toMatch(/echo/i);
    expect(echo?.function.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } }, required: ["message"] });
    expect(request.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(["terminal", "read_file", "mcp__everything__get-sum"]));
    expect(new Set(request.tools?.map((t) => t.function.name)).size).toBe(request.tools?.length);

    const call = events.find((e): e is ToolCallEvent => e.type === "tool_call");
    expect(call).toMatchObject({ name: "mcp__everything__echo", mcp: { server: "everything", tool: "echo" } });
    const result = resultsOf(events)[0];
    expect(result).toMatchObject({ ok: true, output: "Echo: hello from the test", details: { server: "everything", tool: "echo" } });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(toolMessages(wb.model.requests[1].body)).toEqual(["Echo: hello from the test"]);
    expect(events.at(-1)).toMatchObject({ type: "final" });
  });

  it("images as a note of their type and size, resource links with their URI, structured content as JSON, isError as a failure", async () => {
    const scripted = scriptedMcpServer;
    const dataRoot = await rootWith({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] }, scripted: { command: process.execPath, args: [scripted, "ok"] } } });
    wb = await startWorkbench({
      dataRoot,
      script: callsThenAnswer([
        { name: "mcp__everything__get-tiny-image", args: {} },
        { name: "mcp__everything__get-resource-links", args: { count: 2 } },
        { name: "mcp__everything__get-structured-content", args: { location: "New York" } },
        { name: "mcp__scripted__fail", args: {} },
      ]),
    });
    await waitForMcp(wb, connected("everything", "scripted"));
    const results = resultsOf(await chat(wb, "try them all"));
    const [image, links, structured, failed] = results;
    expect(image.output).toMatch(/\[image: image\/png, \d+ bytes, not shown to the model\]/);
    const bytes = Number(/image\/png, (\d+) bytes/.exec(image.output)![1]);
    expect(bytes).toBeGreaterThan(1000);
    expect(links.output).toContain("[resource link: demo://resource/dynamic/text/2 (Text Resource 2), text/plain");
    expect(structured.output).toMatch(/"temperature"/);
    expect(structured.details).toMatchObject({ structured: true });
    expect(failed).toMatchObject({ ok: false, output: "Error: the disk is on fire" });
    // No base64 of the image ever reaches the model.
    const sent = JSON.stringify(wb.model.requests.map((r) => r.body.messages));
    expect(sent).not.toContain("iVBORw0KGgo");
    expect(wb.model.requests.at(-1)!.body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content))[3]).toBe("Error: the disk is on fire");
  });

  it("expands ${VAR} and ${VAR:-default}, names an unset ${VAR}, and never hands the server the model's keys", async () => {
    process.env.MOC_TEST_GREETING = "hello-from-env";
    process.env.OPENAI_API_KEY = "sk-live-should-never-reach-a-server-123";
    process.env.COPY_OF_THE_KEY = "sk-live-should-never-reach-a-server-123";
    try {
      const keyFile = join(await mkdtemp(join(tmpdir(), "moc-key-")), "KEY.md");
      await writeFile(keyFile, "EMBEDDING_API_KEY=emb-secret-value-0123456789\n");
      process.env.EMB_ALIAS = "emb-secret-value-0123456789";
      const dataRoot = await rootWith({
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [everything, "stdio"],
            env: { GREETING: "${MOC_TEST_GREETING}", FALLBACK: "${MOC_SURELY_UNSET:-the-default}", MISSING: "${MOC_NOT_SET_AT_ALL}", LEAK: "${OPENAI_API_KEY}" },
          },
        },
      });
      wb = await startWorkbench({ dataRoot, keyFile, script: callsThenAnswer([{ name: "mcp__everything__get-env", args: {} }]) });
      const state = await waitForMcp(wb, connected("everything"));
      expect(state.servers[0].warnings).toEqual(expect.arrayContaining(["${MOC_NOT_SET_AT_ALL} is not set (expanded to \"\")", "${OPENAI_API_KEY} is not set (expanded to \"\")"]));
      const output = resultsOf(await chat(wb, "show env"))[0].output;
      expect(output).toContain("hello-from-env");
      expect(output).toContain("the-default");
      expect(output).not.toContain("sk-live-should-never-reach-a-server");
      expect(output).not.toContain("emb-secret-value");
      expect(output).not.toContain("OPENAI_API_KEY");
    } finally {
      delete process.env.MOC_TEST_GREETING;
      delete process.env.OPENAI_API_KEY;
      delete process.env.COPY_OF_THE_KEY;
      delete process.env.EMB_ALIAS;
    }
  });

  it("reads resources with mcp_read_resource, and runs a server prompt as a slash command with its arguments", async () => {
    const dataRoot = await rootWith({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp_read_resource", args: { server: "everything", uri: "demo://resource/dynamic/text/3" } }]) });
    const state = await waitForMcp(wb, connected("everything"));
    expect(state.servers[0].resources).toBe(true);
    expect(state.servers[0].prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
    const read = resultsOf(await chat(wb, "read a resource"))[0];
    expect(read).toMatchObject({ ok: true });
    expect(read.output).toContain("Resource 3: This is a plaintext resource");

    wb.model.setScript(() => ({ content: "It is sunny." }));
    const events = await chat(wb, "/mcp__everything__args-prompt Paris");
    expect(events.at(-1)).toMatchObject({ type: "final" });
    const last = wb.model.requests.at(-1)!.body.messages.at(-1)!;
    expect(messageText(last.content)).toContain("What's weather in Paris?");
    const missing = await postJson(`${wb.url}/api/chat`, { message: "/mcp__everything__args-prompt", stream: false });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/needs city/);
    const unknown = await postJson(`${wb.url}/api/chat`, { message: "/mcp__everything__no-such-prompt", stream: false });
    expect(unknown.status).toBe(404);
  });

  it("fixes a session's tools when it starts: a server added later is offered from the next session on; GET /api/prompt lists them with their size", async () => {
    const dataRoot = await rootWith({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } });
    wb = await startWorkbench({ dataRoot, script: () => ({ content: "ok" }) });
    await waitForMcp(wb, connected("everything"));
    const first = sessionIdOf(await chat(wb, "hi"));
    const prompt = (await (await fetch(`${wb.url}/api/prompt?session_id=${first}`)).json()) as PromptReply;
    const echo = prompt.mcp_tools?.find((t) => t.name === "mcp__everything__echo");
    expect(echo).toMatchObject({ server: "everything", chars: JSON.stringify(echo?.definition).length });

    const scripted = scriptedMcpServer;
    const before = (await mcpState(wb)).servers[0].pid;
    await writeFile(join(dataRoot, "MCP.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] }, scripted: { command: process.execPath, args: [scripted, "ok"] } } }));
    const after = await waitForMcp(wb, connected("everything", "scripted"));
    // Only the added server started; the unchanged one kept its process.
    expect(after.servers.find((s) => s.name === "everything")!.pid).toBe(before);
    await chat(wb, "again", first);
    const names = (i: number) => wb!.model.requests[i].body.tools?.map((t) => t.function.name) ?? [];
    expect(names(1)).toEqual(names(0));
    expect(names(1).some((n) => n.startsWith("mcp__scripted__"))).toBe(false);
    await chat(wb, "new session");
    expect(names(2)).toEqual(expect.arrayContaining(["mcp__scripted__echo", "mcp__everything__echo"]));
  });
});

describe("MCP over Streamable HTTP, and a VS Code shaped file", () => {
  let remote: ChildProcess;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    remote = spawn(process.execPath, [everything, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${port}/mcp`, { method: "GET" }).then(() => true, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    remote.kill();
  });

  it("connects to a remote server by URL and calls its tools", async () => {
    const dataRoot = await rootWith({ mcpServers: { remote: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { "X-Test": "yes" } } } });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__remote__get-sum", args: { a: 20, b: 22 } }]) });
    const state = await waitForMcp(wb, connected("remote"));
    expect(state.servers[0]).toMatchObject({ transport: "http", target: `http://127.0.0.1:${port}/mcp`, pid: null });
    const result = resultsOf(await chat(wb, "add"))[0];
    expect(result).toMatchObject({ ok: true });
    expect(result.output).toContain("42");
  });

  it("reads VS Code's { servers: { type: stdio } } and runs server-filesystem on a folder", async () => {
    const shared = await mkdtemp(join(tmpdir(), "moc-fs-"));
    await mkdir(join(shared, "notes"));
    await writeFile(join(shared, "notes", "todo.txt"), "buy milk\n");
    const dataRoot = await rootWith({ servers: { files: { type: "stdio", command: process.execPath, args: [filesystem, shared] } }, inputs: [] });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__files__read_text_file", args: { path: join(shared, "notes", "todo.txt") } }]) });
    const state = await waitForMcp(wb, connected("files"));
    expect(state.servers[0].tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read_text_file", "list_directory", "write_file"]));
    const result = resultsOf(await chat(wb, "read my todo"))[0];
    expect(result).toMatchObject({ ok: true, output: "buy milk\n" });
  });
});

describe("MCP over the old HTTP+SSE transport", () => {
  let remote: ChildProcess;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    remote = spawn(process.execPath, [everything, "sse"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/sse`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => (void r.body?.cancel().catch(() => {}), true),
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    remote.kill();
  });

  it("connects with type: sse, and falls back to SSE for a url alone when Streamable HTTP is refused", async () => {
    const url = `http://127.0.0.1:${port}/sse`;
    const dataRoot = await rootWith({ mcpServers: { legacy: { type: "sse", url }, guessed: { url } } });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__legacy__echo", args: { message: "over sse" } }, { name: "mcp__guessed__echo", args: { message: "fell back" } }]) });
    const state = await waitForMcp(wb, connected("legacy", "guessed"));
    expect(state.servers.map((s) => s.transport)).toEqual(["http", "http"]);
    const [first, second] = resultsOf(await chat(wb, "echo twice"));
    expect(first).toMatchObject({ ok: true, output: "Echo: over sse" });
    expect(second).toMatchObject({ ok: true, output: "Echo: fell back" });
  });
});

describe("approvals for MCP tools", () => {
  const scripted = scriptedMcpServer;
  const servers = { mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] }, scripted: { command: process.execPath, args: [scripted, "ok"] } } };
  const policy = (mcp: unknown) =>
    JSON.stringify({ version: 1, timeout_seconds: 600, tools: { terminal: { mode: "ask-unlisted" }, python_repl: { mode: "ask-unlisted" }, fetch_url: { mode: "off" }, delegate: { mode: "off" } }, ...(mcp ? { mcp } : {}) });

  async function start(mcp: unknown, calls: Array<{ name: string; args: Record<string, unknown> }>) {
    const dataRoot = await rootWith(servers);
    await writeFile(join(dataRoot, "APPROVALS.json"), policy(mcp));
    wb = await startWorkbench({ dataRoot, env: { APPROVALS: "on" }, script: callsThenAnswer(calls) });
    await waitForMcp(wb, connected("everything", "scripted"));
    return wb;
  }
  /** Runs a turn; approves nothing: a call that asks is left to Stop, and reported. */
  async function turn(wb: Workbench, message: string): Promise<{ events: ChatEvent[]; asked: ApprovalRequestEvent[] }> {
    const response = await postJson(`${wb.url}/api/chat`, { message, stream: true });
    const events: ChatEvent[] = [];
    const asked: ApprovalRequestEvent[] = [];
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.type === "approval_request") {
        asked.push(event);
        await fetch(`${wb.url}/api/approvals/${event.id}`, { method: "POST", headers: { "content-type": "application/json", origin: wb.url }, body: JSON.stringify({ decision: "deny" }) });
      }
    }
    return { events, asked };
  }

  it("by default a readOnlyHint tool runs unasked and any other asks, with the server, tool and arguments shown", async () => {
    await start(null, [
      { name: "mcp__everything__echo", args: { message: "x" } },
      { name: "mcp__scripted__write_note", args: { note: "remember" } },
    ]);
    const { events, asked } = await turn(wb!, "go");
    expect(events.find((e) => e.type === "approval")).toMatchObject({ tool: "mcp__everything__echo", decision: "approved", by: "rule", rule: "readOnlyHint" });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: "mcp__scripted__write_note", proposal: "mcp__scripted__write_note", sandbox: expect.stringContaining('MCP server "scripted"') });
    expect(asked[0].subject).toContain("scripted · write_note");
    expect(asked[0].subject).toContain('"note": "remember"');
    expect(resultsOf(events).map((r) => r.ok)).toEqual([true, false]);
  });

  it("allow by tool, by server (mcp__server and mcp__server__*), deny beats allow; Always allow writes the mcp section", async () => {
    await start({ mode: "ask-unlisted", allow: ["mcp__scripted__write_note", "mcp__everything"], deny: [] }, [
      { name: "mcp__scripted__write_note", args: { note: "a" } },
      { name: "mcp__everything__toggle-simulated-logging", args: {} },
    ]);
    let { events, asked } = await turn(wb!, "go");
    expect(asked).toHaveLength(0);
    expect(events.filter((e) => e.type === "approval").map((e) => (e as { rule?: string }).rule)).toEqual(["mcp__scripted__write_note", "mcp__everything"]);
    await wb!.close();

    await start({ mode: "ask-unlisted", allow: ["mcp__scripted__*"], deny: ["mcp__scripted__write_note"] }, [
      { name: "mcp__scripted__write_note", args: { note: "b" } },
      { name: "mcp__scripted__fail", args: {} },
    ]);
    ({ events, asked } = await turn(wb!, "go"));
    expect(asked).toHaveLength(0);
    const decisions = events.filter((e) => e.type === "approval") as Array<{ decision: string; rule?: string }>;
    expect(decisions).toMatchObject([{ decision: "denied", rule: "mcp__scripted__write_note" }, { decision: "approved", rule: "mcp__scripted__*" }]);
    await wb!.close();

    await start(null, [{ name: "mcp__scripted__write_note", args: { note: "c" } }]);
    const response = await postJson(`${wb!.url}/api/chat`, { message: "go", stream: true });
    for await (const event of sseEvents(response)) {
      if (event.type === "approval_request") {
        await fetch(`${wb!.url}/api/approvals/${event.id}`, { method: "POST", headers: { "content-type": "application/json", origin: wb!.url }, body: JSON.stringify({ decision: "always", rule: event.proposal }) });
      }
    }
    const saved = (await (await fetch(`${wb!.url}/api/approvals`)).json()) as ApprovalsReply;
    expect(saved.policy.mcp).toMatchObject({ mode: "ask-unlisted", allow: ["mcp__scripted__write_note"] });
  });

  it("mcp__* alone is ignored, with the reason in GET /api/approvals, and the call still asks", async () => {
    await start({ mode: "ask-unlisted", allow: ["mcp__*"], deny: [] }, [{ name: "mcp__scripted__write_note", args: { note: "d" } }]);
    const approvals = (await (await fetch(`${wb!.url}/api/approvals`)).json()) as ApprovalsReply;
    expect(approvals.problem).toMatch(/"mcp__\*" is ignored: it would cover every MCP server/);
    const { asked } = await turn(wb!, "go");
    expect(asked).toHaveLength(1);
    const health = (await (await fetch(`${wb!.url}/api/health`)).json()) as HealthReply;
    expect(health.approvals.problem).toMatch(/mcp__\*/);
  });
});

describe("sessions record their MCP tools", () => {
  it("stores the catalog in the session file and a server that is down is left out, the agent told which", async () => {
    const dataRoot = await rootWith({ mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] }, off: { command: "true", disabled: true } } });
    wb = await startWorkbench({ dataRoot, script: () => ({ content: "ok" }) });
    await waitForMcp(wb, (r) => connected("everything")(r) && r.servers.find((s) => s.name === "off")?.state === "disabled");
    const id = sessionIdOf(await chat(wb, "hi"));
    const session = await fetchSession(wb.url, id);
    const snapshot = session.entries.find((e) => e.type === "snapshot");
    expect(snapshot && "mcp" in snapshot ? snapshot.mcp?.left_out : null).toEqual([{ server: "off", reason: "disabled in MCP.json" }]);
    const system = messageText(wb.model.requests[0].body.messages[0].content);
    expect(system).toContain("MCP servers configured but not available in this session");
    expect(system).toContain("- off: disabled in MCP.json");
    expect(storedEvents(session.entries).at(-1)).toMatchObject({ type: "final" });
  });
});
