/**
 * A hostile MCP server (a scripted one of the test suite, on the official SDK, saying what a
 * well-behaved server never would): a pattern built to backtrack forever, hundreds of huge schemas,
 * a tool list that never ends, children that leave its process group. Through each, the workbench
 * keeps answering (/api/health within 200 ms, sampled every 50 ms from outside the event loop's
 * work), and nothing the server started outlives it.
 */
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callsThenAnswer, connected, resultsOf, rootWith, scriptedMcpServer, waitForMcp } from "../../test-support/mcp-harness.js";
import { messageText } from "../../test-support/scripted-model-server.js";
import { chat, startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const server = (mode: string, env: Record<string, string> = {}) => ({ command: process.execPath, args: [scriptedMcpServer, mode], env });

/** The slowest /api/health answer while `work` runs, sampled every 50 ms. */
/**
 * Still answering: these attacks held the server for 70 s to minutes on main. The bound is a liveness
 * line with room for a loaded CI machine, not a speed figure (those are in bench/).
 */
const ANSWERS_WITHIN_MS = 2_000;

async function slowestHealthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let done = false;
  let slowestMs = 0;
  const sampling = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.text()).catch(() => {});
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return { result: await work, slowestMs };
  } finally {
    done = true;
    await sampling;
    console.log(`slowest /api/health answer: ${slowestMs.toFixed(0)} ms`);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidsIn = async (file: string) => (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean).map(Number);

describe("a hostile MCP server", () => {
  it("a pattern made to backtrack forever: the call's arguments are checked in linear time, the server keeps answering", async () => {
    wb = await startWorkbench({
      dataRoot: await rootWith({ mcpServers: { hostile: server("redos") } }),
      script: (body) =>
        messageText(body.messages.at(-1)?.content) === "warm up"
          ? { content: "ready" }
          : callsThenAnswer([
              { name: "mcp__hostile__match", args: { s: `${"a".repeat(5_000)}!` } },
              { name: "mcp__hostile__match", args: { s: "aaaa" } },
            ])(body),
    });
    await waitForMcp(wb, connected("hostile"));
    // A first turn loads what every turn needs; the attack is timed on its own.
    await chat(wb, "warm up");
    const { result: events, slowestMs } = await slowestHealthDuring(wb.url, chat(wb, "match it"));
    const [refused, matched] = resultsOf(events);
    expect(refused).toMatchObject({ ok: false, output: expect.stringMatching(/^Error: invalid arguments for mcp__hostile__match: s: must match pattern/) });
    expect(matched).toMatchObject({ ok: true, output: "matched 4" });
    expect(slowestMs).toBeLessThan(ANSWERS_WITHIN_MS);
  });

  it("300 tools with ~100 kB schemas full of patterns: left out with the reason, and the server keeps answering", async () => {
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { heavy: server("heavy") } }), script: () => ({ content: "ok" }) });
    const { result: state, slowestMs } = await slowestHealthDuring(wb.url, waitForMcp(wb, connected("heavy"), 30_000));
    const tools = state.servers[0].tools;
    expect(tools).toHaveLength(300);
    for (const tool of tools) expect(tool).toMatchObject({ exposed_as: null, problem: expect.stringMatching(/characters, over 64000/) });
    expect(slowestMs).toBeLessThan(ANSWERS_WITHIN_MS);
    // A session starting now gets none of them and a valid request.
    const events = await chat(wb, "hello");
    expect(events.at(-1)).toMatchObject({ type: "final" });
    expect(wb.model.requests[0].body.tools?.some((t) => t.function.name.startsWith("mcp__heavy"))).toBe(false);
  });

  it("a tool list that always names another page: read up to a cap, connected, with a warning", async () => {
    const pageLog = join(tmpdir(), `moc-pages-${process.pid}-${Date.now()}`);
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { endless: server("endless", { PAGE_LOG: pageLog }) } }), script: () => ({ content: "ok" }) });
    const { result: state, slowestMs } = await slowestHealthDuring(wb.url, waitForMcp(wb, connected("endless"), 10_000));
    expect(state.servers[0].tools.length).toBe(20);
    expect(state.servers[0].warnings.join(" ")).toMatch(/kept answering tools\/list with another page \(20 read\)/);
    // It stays at that: no request loop in the background.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await pidsIn(pageLog)).toHaveLength(20);
    expect(slowestMs).toBeLessThan(ANSWERS_WITHIN_MS);
  });

  it("children in sessions of their own (one orphaned at once) end with the server: on restart and on shutdown", async () => {
    const pidFile = join(tmpdir(), `moc-setsid-${process.pid}-${Date.now()}`);
    wb = await startWorkbench({ dataRoot: await rootWith({ mcpServers: { daemon: server("setsid", { CHILD_PID_FILE: pidFile }) } }), script: () => ({ content: "ok" }) });
    await waitForMcp(wb, connected("daemon"));
    await expect.poll(() => pidsIn(pidFile)).toHaveLength(2);
    const first = await pidsIn(pidFile);
    expect(first.every(alive)).toBe(true);
    const restarted = await fetch(`${wb.url}/api/mcp/daemon/restart`, { method: "POST", headers: { origin: wb.url } });
    expect(restarted.status).toBe(202);
    await waitForMcp(wb, connected("daemon"));
    await expect.poll(() => pidsIn(pidFile)).toHaveLength(4);
    await expect.poll(() => first.filter(alive), { timeout: 5_000 }).toEqual([]);
    const second = (await pidsIn(pidFile)).slice(2);
    expect(second.every(alive)).toBe(true);
    await wb.close();
    wb = undefined;
    await expect.poll(() => second.filter(alive), { timeout: 5_000 }).toEqual([]);
  });
});
