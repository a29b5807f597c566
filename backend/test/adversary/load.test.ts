/**
 * The server holds under load from outside and from its own sandbox (issue 27): thousands of
 * connections dripping their headers against a process whose open-file limit is 2,048, and 10,000
 * skill folders planted by the agent. /api/health is measured from outside the server's process.
 * Everything stays on loopback and stops by itself.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttackedServer, startAttackedServer } from "../../test-support/adversary.js";
import { startScriptedModelServer } from "../../test-support/scripted-model-server.js";
import { startServerProcess } from "../../test-support/server-process.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";

/** One GET /api/health on a fresh connection, in ms (a failure or a late answer counts as the time waited). */
async function healthMs(url: string, limitMs = 3000): Promise<number> {
  const t0 = performance.now();
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(limitMs), headers: { connection: "close" } });
    await response.text();
    return response.ok ? performance.now() - t0 : limitMs;
  } catch {
    return limitMs;
  }
}

describe("slow clients", () => {
  // Liveness bounds, not speed figures (those are in docs/benchmarks.md): without the guards these attacks held
  // /api/health past 3 s and a turn ~4 s, so 2 s still catches them, and a loaded two-core CI machine stays under it.
  it("3,000 connections dripping headers, open-file limit 2,048: /api/health answers within 2 s throughout", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-slowloris-"));
    const model = await startScriptedModelServer([]);
    const server = await startServerProcess(
      { WORKBENCH_ROOT: root, KEY_FILE: join(root, "none.md"), OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "m", LOG_LEVEL: "silent" },
      { openFiles: 2048 },
    );
    const { port } = new URL(server.url);
    // The attacker is its own process (as it would be), so the health checks here are not slowed by its
    // 3,000 sockets. Each sends a request line and one header, then a header line every 500 ms, never
    // the end; a connection the server drops is opened again a second later while the attack lasts.
    const attack = `
      const net = require("node:net");
      let opened = 0, open = 0;
      const attacker = () => {
        const socket = net.connect({ host: "127.0.0.1", port: ${port} });
        opened++; open++;
        socket.on("error", () => {});
        socket.on("connect", () => socket.write("GET /api/health HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n"));
        const drip = setInterval(() => socket.writable && socket.write("X-Drip-" + Date.now() + ": 1\\r\\n"), 500);
        socket.on("close", () => { clearInterval(drip); open--; setTimeout(attacker, 1000); });
      };
      for (let i = 0; i < 3000; i++) attacker();
      setTimeout(() => { console.log(JSON.stringify({ opened, open })); process.exit(0); }, 14000);
    `;
    const attacker = spawn(process.execPath, ["-e", attack], { stdio: ["ignore", "pipe", "inherit"] });
    let report = "";
    attacker.stdout!.on("data", (chunk: Buffer) => (report += chunk.toString()));
    const finished = new Promise((resolve) => attacker.on("exit", resolve));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const samples: number[] = [];
      const until = performance.now() + 12_000;
      while (performance.now() < until) {
        samples.push(await healthMs(server.url));
        await new Promise((r) => setTimeout(r, 200));
      }
      await finished;
      console.log(`slow-header attack: ${report.trim()}; health samples ${samples.length}, slowest ${Math.max(...samples).toFixed(0)} ms`);
      expect(server.alive()).toBe(true);
      expect(Math.max(...samples)).toBeLessThanOrEqual(2000);
    } finally {
      attacker.kill("SIGKILL");
      server.child.kill("SIGTERM");
      await model.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!sandboxExpected().available)("10,000 skill folders planted by the agent", () => {
  let s: AttackedServer;
  beforeAll(async () => {
    s = await startAttackedServer({ script: () => ({ content: "a plain answer" }) });
    const planted = await s.plant(
      'for i in $(seq 1 10000); do mkdir -p "skills/planted-$i" && printf -- "---\\nname: planted-$i\\ndescription: A skill planted by the agent, number $i, to slow every turn down.\\n---\\nDo nothing.\\n" > "skills/planted-$i/SKILL.md"; done',
      120_000,
    );
    expect(planted.exitCode, planted.output).toBe(0);
  }, 180_000);
  afterAll(async () => s?.close());

  it("a plain turn takes under 2 s, /api/health stays under 2 s, and the skills left out are reported", async () => {
    let slowest = 0;
    let done = false;
    const sampling = (async () => {
      while (!done) {
        slowest = Math.max(slowest, await s.healthMs(3000));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const turns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const reply = await s.request("/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: `hello ${i}`, stream: false }) });
      turns.push(performance.now() - t0);
      expect(reply.status, reply.text).toBe(200);
    }
    done = true;
    await sampling;
    console.log(`10,000 planted skills: turns ${turns.map((t) => t.toFixed(0)).join(", ")} ms; slowest health ${slowest.toFixed(0)} ms`);
    expect(Math.max(...turns)).toBeLessThan(2000);
    expect(slowest).toBeLessThan(2000);
    const skills = JSON.parse((await s.request("/api/skills")).text) as { skills: unknown[]; problems: Array<{ reason: string }> };
    expect(skills.skills.length).toBeLessThanOrEqual(600);
    expect(skills.problems.some((p) => /not scanned/.test(p.reason))).toBe(true);
  }, 60_000);
});
