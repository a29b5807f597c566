/**
 * A workbench under attack from its own sandbox. The server runs as its own process (the built
 * `dist/main.js`) with `OPENAI_API_KEY` in its environment and in its KEY.md, so
 * `/proc/self/environ` and KEY.md really hold the key; its log is its real stdout. The attacker is
 * the real sandbox (same profile, same unprivileged user, same data root) running bash, as a
 * prompt-injected agent's `terminal` would. After each attack the suite looks for the key
 * everywhere it must never be: HTTP responses, model requests, the log, sessions/ and storage/.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/config.js";
import type { RunResult } from "../src/sandbox/run-process.js";
import { Sandbox } from "../src/sandbox/sandbox.js";
import { startServerProcess } from "./server-process.js";
import { type ModelScript, type ScriptedModelServer, startScriptedModelServer } from "./scripted-model-server.js";

export const SERVER_SECRET = "sk-ADVERSARY-server-key-5c2e91";

export interface AttackedServer {
  url: string;
  /** The data root the sandbox writes and the server reads. */
  dataRoot: string;
  keyFile: string;
  model: ScriptedModelServer;
  sandbox: Sandbox;
  /** Runs a bash command in the sandbox, as the agent's terminal tool would. */
  plant(command: string, timeoutMs?: number): Promise<RunResult>;
  /** A request to the server; its body is kept for the leak check. */
  request(path: string, init?: RequestInit): Promise<{ status: number; text: string; headers: Headers }>;
  /** Time for one GET /api/health, in ms (a failed or late answer counts as the time waited). */
  healthMs(limitMs?: number): Promise<number>;
  /**
   * Every place the key was found since the last call (empty: no leak): responses, log lines and
   * model requests that came since then, and files under sessions/ and storage/ that hold it and
   * were not reported before.
   */
  leaks(): Promise<string[]>;
  /** The log from now on: call the function it returns for what was written since. */
  logSince(): () => string;
  /** Whether the server process is still running. */
  alive(): boolean;
  /** The server process's peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): Promise<number>;
  /** The server process's resident memory now (VmRSS), in MB. */
  rssMb(): Promise<number>;
  /** Starts the peak (VmHWM) over from the resident memory now (`/proc/<pid>/clear_refs`, 5); false where the kernel refuses. */
  resetPeak(): Promise<boolean>;
  close(): Promise<void>;
}

async function filesUnder(dir: string, out: string[] = []): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (info?.isDirectory()) await filesUnder(path, out);
    else if (info?.isFile()) out.push(path);
  }
  return out;
}

export async function startAttackedServer(options: { script?: ModelScript; env?: Record<string, string> } = {}): Promise<AttackedServer> {
  const project = await mkdtemp(join(tmpdir(), "moc-adversary-"));
  const dataRoot = join(project, "root");
  const keyFile = join(project, "KEY.md");
  await mkdir(dataRoot);
  await writeFile(keyFile, `OPENAI_API_KEY=${SERVER_SECRET}\n`);
  const model = await startScriptedModelServer(options.script ?? [{ content: "ok" }]);
  const server = await startServerProcess(
    {
      WORKBENCH_ROOT: dataRoot,
      KEY_FILE: keyFile,
      OPENAI_API_KEY: SERVER_SECRET,
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_MODEL: "scripted",
      MODEL_MAX_RETRIES: "0",
      LOG_LEVEL: "debug",
      ...options.env,
    },
    { cleanEnv: true },
  ).catch(async (err) => {
    await model.close();
    throw err;
  });
  const { child, url, output: log } = server;
  // The attacker: the sandbox the server's tools run in, on the same data root.
  const sandbox = await Sandbox.create(loadConfig({ WORKBENCH_ROOT: dataRoot, PATH: process.env.PATH ?? "" }, keyFile));
  const responses: string[] = [];
  let checkedRequests = 0;
  const reportedFiles = new Set<string>();

  const request: AttackedServer["request"] = async (path, init) => {
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    responses.push(`${path}\n${text}`);
    return { status: response.status, text, headers: response.headers };
  };

  return {
    url,
    dataRoot,
    keyFile,
    model,
    sandbox,
    plant: (command, timeoutMs = 30_000) => sandbox.run(["/bin/bash", "-c", command], { timeoutMs, maxOutputChars: 20_000 }),
    request,
    async healthMs(limitMs = 5000) {
      const started = performance.now();
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(limitMs) })
        .then((r) => r.text())
        .catch(() => {});
      return performance.now() - started;
    },
    async leaks() {
      const found: string[] = [];
      for (const body of responses.splice(0)) if (body.includes(SERVER_SECRET)) found.push(`HTTP response: ${body.split("\n")[0]}`);
      if (log.splice(0).join("").includes(SERVER_SECRET)) found.push("the server's log");
      const requests = model.requests.slice(checkedRequests);
      checkedRequests = model.requests.length;
      requests.forEach((r, i) => JSON.stringify(r.body).includes(SERVER_SECRET) && found.push(`model request #${checkedRequests - requests.length + i}`));
      for (const dir of ["sessions", "storage"]) {
        for (const file of await filesUnder(join(dataRoot, dir))) {
          if (reportedFiles.has(file)) continue;
          if ((await readFile(file, "utf8").catch(() => "")).includes(SERVER_SECRET)) {
            reportedFiles.add(file);
            found.push(file);
          }
        }
      }
      return found;
    },
    alive: server.alive,
    logSince() {
      const from = server.stdout.length;
      return () => server.stdout.slice(from).join("");
    },
    async peakRssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
    },
    async resetPeak() {
      return writeFile(`/proc/${child.pid}/clear_refs`, "5").then(
        () => true,
        () => false,
      );
    },
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
    },
    async close() {
      child.kill("SIGKILL");
      sandbox.close();
      await model.close();
      // Files the sandbox user made may be read-only to us only when not root; force anyway.
      await rm(project, { recursive: true, force: true });
    },
  };
}
