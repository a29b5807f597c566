import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { backendDir } from "../config/project-paths.js";
import { killStrays } from "./process-tree.js";
import { watchWrites } from "./run-process.js";
import { findOnPath, type Sandbox } from "./sandbox.js";

const FRAME = "\x1eMOC-REPL ";
const driverCode = readFileSync(join(backendDir, "python", "repl_driver.py"), "utf8");

export interface PythonRun {
  ok: boolean;
  output: string;
  timedOut: boolean;
  /** True when this call found the previous process gone, so earlier state is lost. */
  stateLost: boolean;
}

/** The interpreter to use: Debian's inside the sandbox (a pyenv shim under /root is not visible there). */
export function findPython(sandbox: Sandbox, searchPath: string): string | null {
  if (existsSync("/usr/bin/python3")) return "/usr/bin/python3";
  return sandbox.isolated ? null : findOnPath("python3", searchPath);
}

/**
 * One persistent python3 per chat session, under the sandbox: variables survive between calls.
 * A call past its timeout or its write budget kills the whole process (its state is lost, and the
 * next call says so). Processes a call started (subprocess.Popen, os.fork) end with the call.
 */
export class PythonSession {
  private child: ChildProcess | null = null;
  private stdout = "";
  private stray = "";
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private lostState = false;
  private pending: { id: number; resolve: (r: PythonRun) => void } | null = null;
  lastUsed = Date.now();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly pythonPath: string,
  ) {}

  run(code: string, limits: PythonLimits): Promise<PythonRun> {
    const next = this.queue.then(() => this.runNow(code, limits));
    this.queue = next.catch(() => {});
    return next;
  }

  private start(): ChildProcess {
    const argv = this.sandbox.argv([this.pythonPath, "-u", "-I", "-c", driverCode]);
    const child = spawn(argv[0], argv.slice(1), {
      cwd: this.sandbox.cwd,
      env: this.sandbox.env(),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => this.onStdout(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.stray += chunk));
    child.on("exit", (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      this.lostState = true;
      const waiting = this.pending;
      this.pending = null;
      waiting?.resolve({
        ok: false,
        output: `${this.takeStray()}Error: the Python process exited (${signal ?? `code ${code}`}); its state was lost.`.trim(),
        timedOut: false,
        stateLost: true,
      });
    });
    child.on("error", () => {});
    return child;
  }

  private takeStray(): string {
    const text = this.stray;
    this.stray = "";
    return text;
  }

  private onStdout(chunk: string) {
    this.stdout += chunk;
    let at: number;
    while ((at = this.stdout.indexOf(FRAME)) >= 0) {
      const end = this.stdout.indexOf("\n", at);
      if (end < 0) return;
      this.stray += this.stdout.slice(0, at);
      const reply = JSON.parse(this.stdout.slice(at + FRAME.length, end)) as { id: number; ok: boolean; output: string };
      this.stdout = this.stdout.slice(end + 1);
      if (this.pending && this.pending.id === reply.id) {
        const waiting = this.pending;
        this.pending = null;
        waiting.resolve({ ok: reply.ok, output: this.takeStray() + reply.output, timedOut: false, stateLost: false });
      }
    }
    // Output written straight to the file descriptor (os.system, subprocess) is kept, capped.
    if (!this.stdout.includes("\x1e") && this.stdout.length > 0) {
      this.stray = (this.stray + this.stdout).slice(-64_000);
      this.stdout = "";
    }
  }

  private async runNow(code: string, limits: PythonLimits): Promise<PythonRun> {
    this.lastUsed = Date.now();
    const stateLost = this.lostState;
    this.lostState = false;
    if (!this.child) this.child = this.start();
    const child = this.child;
    const id = this.nextId++;
    const result = await new Promise<PythonRun>((resolve) => {
      const finish = (run: PythonRun) => {
        clearTimeout(timer);
        stopWatching();
        limits.signal?.removeEventListener("abort", onAbort);
        resolve(run);
      };
      const stopWatching =
        limits.maxWriteBytes && child.pid
          ? watchWrites(child.pid, limits.maxWriteBytes, () => {
              this.kill();
              finish({
                ok: false,
                output:
                  `${this.takeStray()}Error: the code wrote more than ${Math.round(limits.maxWriteBytes! / 1048576)} MB, the limit for one call. ` +
                  "The Python process was stopped and will restart on the next call: its state was lost.",
                timedOut: false,
                stateLost: true,
              });
            })
          : () => {};
      const timer = setTimeout(() => {
        this.kill();
        finish({
          ok: false,
          output:
            `${this.takeStray()}Error: the code ran past its ${Math.round(limits.timeoutMs / 1000)} s timeout. ` +
            "The Python process was stopped and will restart on the next call: its state (variables, imports) was lost.",
          timedOut: true,
          stateLost: true,
        });
      }, limits.timeoutMs);
      const onAbort = () => {
        this.kill();
        finish({ ok: false, output: "Stopped: the turn was cancelled; the Python state was lost.", timedOut: false, stateLost: true });
      };
      limits.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending = { id, resolve: finish };
      child.stdin!.write(`${JSON.stringify({ id, code, limit: limits.maxOutputChars })}\n`);
    });
    this.pending = null;
    const stopped = this.child === child && child.pid ? await killStrays(child.pid, { wrapped: this.sandbox.isolated }) : 0;
    const note = stopped > 0 ? `\n[stopped ${stopped} process${stopped === 1 ? "" : "es"} this call left running: nothing outlives a call]` : "";
    return { ...result, output: result.output + note, stateLost: result.stateLost || stateLost };
  }

  kill(): void {
    const child = this.child;
    this.child = null;
    this.lostState = true;
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}

export interface PythonLimits {
  timeoutMs: number;
  maxOutputChars: number;
  maxWriteBytes?: number;
  signal?: AbortSignal;
}

const IDLE_MS = 30 * 60_000;

/** The Python sessions of all chat sessions; idle ones are stopped after 30 minutes. */
export class PythonSessions {
  private readonly sessions = new Map<string, PythonSession>();
  private readonly reaper: NodeJS.Timeout;

  constructor(
    private readonly sandbox: Sandbox,
    readonly pythonPath: string | null,
  ) {
    this.reaper = setInterval(() => {
      for (const [id, session] of this.sessions) {
        if (Date.now() - session.lastUsed > IDLE_MS) {
          session.kill();
          this.sessions.delete(id);
        }
      }
    }, 60_000);
    this.reaper.unref();
  }

  get(chatSessionId: string): PythonSession | null {
    if (!this.pythonPath) return null;
    let session = this.sessions.get(chatSessionId);
    if (!session) this.sessions.set(chatSessionId, (session = new PythonSession(this.sandbox, this.pythonPath)));
    return session;
  }

  closeAll(): void {
    clearInterval(this.reaper);
    for (const session of this.sessions.values()) session.kill();
    this.sessions.clear();
  }
}
