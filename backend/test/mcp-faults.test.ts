/**
 * MCP servers that misbehave, scripted (test-support/scripted-mcp-server.mjs on the official SDK's
 * low-level Server): the workbench stays up, every turn ends, and what went wrong is shown in words.
 */
import { MAX_SESSION_TOOLS } from "../src/mcp/mcp-catalog.js";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { HealthReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody } from "../test-support/scripted-model-server.js";
import { chat, postJson, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";
import { callsThenAnswer, connected, everything, mcpState, resultsOf, rootWith, scriptedMcpServer as scripted, waitForMcp } from "../test-support/mcp-harness.js";
const server = (mode: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [scripted, mode], ...extra });

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

async function healthOk(wb: Workbench): Promise<HealthReply> {
  const response = await fetch(`${wb.url}/api/health`);
  expect(response.status).toBe(200);
  return (await response.json()) as HealthReply;
}
/** Running (a zombie waiting for its reaper has ended: it holds nothing). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

describe("MCP servers that misbehave", () => {
  it("garbage on stdout is skipped and shown; the server's tools still work", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { noisy: server("garbage") } }), script: callsThenAnswer([{ name: "mcp__noisy__echo", args: { text: "hi" } }]) });
    const state = await waitForMcp(wb, connected("noisy"));
    expect(resultsOf(await chat(wb, "echo"))[0]).toMatchObject({ ok: true, output: "echo: hi" });
    const stderr = (await mcpState(wb)).servers[0].stderr.join("\n");
    expect(stderr).toContain("[stdout, not JSON-RPC] Starting scripted server...");
    expect(state.servers[0].state).toBe("connected");
  });

  it("a tool whose schema is not usable JSON Schema is left out with its reason; the model's request stays valid", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { odd: server("bad-schema") } }), script: () => ({ content: "ok" }) });
    const state = await waitForMcp(wb, connected("odd"));
    const tools = Object.fromEntries(state.servers[0].tools.map((t) => [t.name, t]));
    expect(tools.good).toMatchObject({ exposed_as: "mcp__odd__good" });
    expect(tools.array_schema).toMatchObject({ exposed_as: null, problem: expect.stringContaining("not an object schema") });
    expect(tools.broken_type).toMatchObject({ exposed_as: null, problem: expect.stringContaining("not valid JSON Schema") });
    expect(tools.bad_required).toMatchObject({ exposed_as: null, problem: expect.stringContaining("not valid JSON Schema") });
    await chat(wb, "hi");
    const names = wb.model.requests[0].body.tools!.map((t) => t.function.name);
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__odd__good"]);
  });

  it("500 tools: at most 128 less the built-in tools offered (model APIs take 128), the rest left out with the reason, and the agent told", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { big: server("many") } }), script: () => ({ content: "ok" }) });
    const state = await waitForMcp(wb, connected("big"));
    expect(state.servers[0].tools).toHaveLength(503);
    await chat(wb, "hi");
    const request = wb.model.requests[0].body as ChatRequestBody;
    expect(request.tools!.length).toBeLessThanOrEqual(128);
    expect(request.tools!.filter((t) => t.function.name.startsWith("mcp__big__"))).toHaveLength(MAX_SESSION_TOOLS);
    expect(JSON.stringify(request.messages[0])).toContain(`${503 - MAX_SESSION_TOOLS} tools of big are not offered`);
  });

  it("a server that exits at start is failed with its stderr, and is not restarted in a loop", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { broken: server("crash") } }), script: () => ({ content: "still here" }) });
    const state = await waitForMcp(wb, (r) => r.servers[0]?.state === "failed");
    expect(state.servers[0].reason).toContain("fatal: cannot open database");
    expect(state.servers[0].stderr.join("\n")).toContain("fatal: cannot open database /nonexistent/db.sqlite");
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await mcpState(wb)).servers[0]).toMatchObject({ state: "failed", restarts: 0 });
    const health = await healthOk(wb);
    expect(health.mcp).toMatchObject({ configured: 1, connected: 0, failed: 1 });
    expect(health.mcp.problems[0]).toMatch(/MCP server "broken" failed: .*fatal: cannot open database/);
    expect((await chat(wb, "hi")).at(-1)).toMatchObject({ type: "final", content: "still here" });
    // Restart tries again at once (and fails the same way).
    expect((await postJson(`${wb.url}/api/mcp/broken/restart`, {})).status).toBe(202);
    expect((await postJson(`${wb.url}/api/mcp/nope/restart`, {})).status).toBe(404);
  });

  it("a server that never answers initialize is connecting, then failed after startup_timeout_ms, and never holds up a turn", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { mute: server("no-init", { startup_timeout_ms: 1_500 }) } }), script: () => ({ content: "answered" }) });
    expect((await mcpState(wb)).servers[0].state).toBe("connecting");
    const started = Date.now();
    const events = await chat(wb, "hi");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "answered" });
    expect(Date.now() - started).toBeLessThan(1_500);
    const state = await waitForMcp(wb, (r) => r.servers[0].state === "failed", 5_000);
    expect(state.servers[0].reason).toBe("it did not answer initialize within 1500 ms");
    // The session that started while it was connecting was told it is not there.
    expect(JSON.stringify(wb.model.requests[0].body.messages[0])).toContain("- mute: connecting");
    await healthOk(wb);
  });

  it("a call past tool_timeout_ms is cancelled (the server gets notifications/cancelled) and the agent is told it timed out", async () => {
    const dataRoot = await rootWith({});
    const log = join(dataRoot, "..", `cancel-${Date.now()}.log`);
    await writeFile(join(dataRoot, "MCP.json"), JSON.stringify({ mcpServers: { slow: server("slow", { tool_timeout_ms: 1_000, env: { CANCEL_LOG: log } }) } }));
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__slow__sleep", args: { ms: 30_000 } }]) });
    await waitForMcp(wb, connected("slow"));
    const started = Date.now();
    const events = await chat(wb, "sleep");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(resultsOf(events)[0]).toMatchObject({ ok: false, output: 'Error: sleep on the MCP server "slow" timed out after 1000 ms and was cancelled.' });
    expect(events.at(-1)).toMatchObject({ type: "final" });
    await new Promise((r) => setTimeout(r, 200));
    const cancelled = (await readFile(log, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { requestId: number; reason?: string });
    expect(cancelled[0]).toMatchObject({ requestId: expect.any(Number), reason: expect.stringMatching(/timed out/i) });
  });

  it("a 50 MB result is cut to 100,000 characters with a marker and the turn ends normally", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { huge: server("big") } }), script: callsThenAnswer([{ name: "mcp__huge__big", args: { mb: 50 } }]) });
    await waitForMcp(wb, connected("huge"));
    const events = await chat(wb, "big");
    const result = resultsOf(events)[0];
    expect(result.ok).toBe(true);
    expect(result.output.length).toBeLessThan(100_200);
    expect(result.output).toMatch(/\[… 52328800 more characters left out: the result was 52428800 characters\]$/);
    expect(events.at(-1)).toMatchObject({ type: "final" });
    await healthOk(wb);
  });

  it("a server killed mid-call: the call fails with why, the server is restarted with backoff, and works again", async () => {
    wb = await startWorkbench({
      dataRoot: await rootWith({ mcpServers: { fragile: server("die-after") } }),
      script: callsThenAnswer([
        { name: "mcp__fragile__die", args: {} },
        { name: "mcp__fragile__echo", args: { text: "right after" } },
      ]),
    });
    const first = await waitForMcp(wb, connected("fragile"));
    const events = await chat(wb, "die");
    const [died, after] = resultsOf(events);
    expect(died).toMatchObject({ ok: false });
    expect(died.output).toMatch(/die on the MCP server "fragile" failed: .*Connection closed/);
    expect(after).toMatchObject({ ok: false, output: expect.stringContaining('the MCP server "fragile" is connecting (it exited with code 9; restarting in 1 s (restart 1))') });
    expect(events.at(-1)).toMatchObject({ type: "final" });
    const back = await waitForMcp(wb, connected("fragile"), 10_000);
    expect(back.servers[0]).toMatchObject({ restarts: 1 });
    expect(back.servers[0].pid).not.toBe(first.servers[0].pid);
    wb.model.setScript(callsThenAnswer([{ name: "mcp__fragile__echo", args: { text: "again" } }]));
    expect(resultsOf(await chat(wb, "echo"))[0]).toMatchObject({ ok: true, output: "echo: again" });
  });

  it("invalid MCP.json written live keeps the running servers and shows the parse error; fixing it applies without a restart", async () => {
    const dataRoot = await rootWith({ mcpServers: { steady: server("ok") } });
    wb = await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__steady__echo", args: { text: "still" } }]) });
    const before = await waitForMcp(wb, connected("steady"));
    await writeFile(join(dataRoot, "MCP.json"), '{ "mcpServers": { "steady": ');
    const broken = await waitForMcp(wb, (r) => r.file.problem !== null, 10_000);
    expect(broken.file.problem).toMatch(/MCP\.json is not valid JSON: .*; the servers already running keep running/);
    expect(broken.servers[0]).toMatchObject({ name: "steady", state: "connected", pid: before.servers[0].pid });
    expect((await healthOk(wb)).mcp.problems[0]).toMatch(/not valid JSON/);
    expect(resultsOf(await chat(wb, "echo"))[0]).toMatchObject({ ok: true, output: "echo: still" });

    await writeFile(join(dataRoot, "MCP.json"), JSON.stringify({ mcpServers: { steady: server("ok"), more: server("ok"), bad: { type: "http" } } }));
    const fixed = await waitForMcp(wb, (r) => r.file.problem === null && connected("steady", "more")(r), 10_000);
    expect(fixed.servers.find((s) => s.name === "steady")!.pid).toBe(before.servers[0].pid);
    expect(fixed.problems).toEqual([{ name: "bad", reason: 'a "http" server needs a "url"' }]);
  });

  it("a remote server answering 401 shows 'needs authentication' with the server's own words", async () => {
    const remote: Server = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="example"' });
      res.end(JSON.stringify({ error: "invalid_token", error_description: "The access token expired" }));
    });
    await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
    const port = (remote.address() as { port: number }).port;
    try {
      wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { locked: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer old" } } } }), script: () => ({ content: "ok" }) });
      const state = await waitForMcp(wb, (r) => r.servers[0]?.state === "failed");
      expect(state.servers[0].reason).toMatch(/^needs authentication: the server answered 401 \(.*The access token expired/);
      expect(JSON.stringify(state)).not.toContain("Bearer old");
      await healthOk(wb);
    } finally {
      remote.close();
    }
  });
});

describe("the workbench stopping", () => {
  it("ends every server and what it started (its process group) on SIGTERM: no orphans", async () => {
    const { startServerProcess } = await import("../test-support/server-process.js");
    const dataRoot = await rootWith({});
    const childPidFile = join(dataRoot, "..", `child-${Date.now()}.pid`);
    await writeFile(join(dataRoot, "MCP.json"), JSON.stringify({ mcpServers: { parent: server("spawn-child", { env: { CHILD_PID_FILE: childPidFile } }), everything: { command: process.execPath, args: [everything, "stdio"] } } }));
    const proc = await startServerProcess({ WORKBENCH_ROOT: dataRoot });
    try {
      let reply = { servers: [] as Array<{ state: string; pid: number | null }> };
      for (let i = 0; i < 100 && !(reply.servers.length === 2 && reply.servers.every((s) => s.state === "connected")); i++) {
        await new Promise((r) => setTimeout(r, 100));
        reply = (await (await fetch(`${proc.url}/api/mcp`)).json()) as typeof reply;
      }
      const pids = reply.servers.map((s) => s.pid!);
      const child = Number(await readFile(childPidFile, "utf8"));
      expect([...pids, child].every(alive)).toBe(true);
      proc.child.kill("SIGTERM");
      await new Promise((resolve) => proc.child.once("exit", resolve));
      for (let i = 0; i < 30 && [...pids, child].some(alive); i++) await new Promise((r) => setTimeout(r, 100));
      expect([...pids, child].filter(alive)).toEqual([]);
    } finally {
      if (proc.alive()) proc.child.kill("SIGKILL");
    }
  });
});
