import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../test-support/free-port.js";

const projectRoot = resolve(__dirname, "..", "..");
const builtMain = resolve(__dirname, "..", "dist", "main.js");

/** `pnpm start` at the root when running under pnpm (as the README's test command does), else the same entry point. */
function startCommand(): { command: string; args: string[] } {
  const execPath = process.env.npm_execpath ?? "";
  if (/pnpm/.test(execPath)) return { command: process.execPath, args: [execPath, "start"] };
  return { command: process.execPath, args: [builtMain] };
}

let child: ChildProcess | undefined;
let root: string | undefined;
afterEach(async () => {
  // pnpm start runs the server as a grandchild: stop the whole process group.
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child?.once("exit", r));
    process.kill(-child.pid, "SIGTERM");
    await exited;
  }
  child = undefined;
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the start command", () => {
  it("honours PORT, HOST and WORKBENCH_ROOT, seeds an empty data root and answers /api/health within 15 s", async () => {
    expect(existsSync(builtMain), "backend/dist is missing: the backend's test script builds it first").toBe(true);
    const port = await freePort();
    root = await mkdtemp(join(tmpdir(), "moc-start-"));
    const { command, args } = startCommand();
    let output = "";
    child = spawn(command, args, {
      cwd: projectRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        WORKBENCH_ROOT: root,
        OPENAI_API_KEY: "sk-test-never-logged-123",
        KEY_FILE: join(root, "no-KEY.md"),
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout?.on("data", (c) => (output += c));
    child.stderr?.on("data", (c) => (output += c));

    const started = Date.now();
    let health: { ok: boolean; data_root: string; model: Record<string, unknown> } | undefined;
    while (Date.now() - started < 15_000 && !health) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.json() as Promise<typeof health>)
        .catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 200));
    }
    expect(health, `no health answer within 15 s; output:\n${output}`).toBeDefined();
    expect(health).toMatchObject({ ok: true, data_root: root, model: { configured: true } });
    expect(JSON.stringify(health)).not.toContain("sk-test-never-logged-123");
    expect(await readFile(join(root, "workspace/AGENTS.md"), "utf8")).toContain("Skill protocol");
    expect(existsSync(join(root, "skills/get_weather/SKILL.md"))).toBe(true);
    await fetch(`http://127.0.0.1:${port}/api/chat`, { method: "POST" }).catch(() => {});
    expect(output).toContain(`http://127.0.0.1:${port}`);
    expect(output).not.toContain("sk-test-never-logged-123");
  }, 30_000);
});
