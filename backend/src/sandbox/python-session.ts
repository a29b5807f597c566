import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { z } from "zod";
import { backendDir } from "../config/project-paths.js";
import { killStrays } from "../lib/process-tree.js";
import { handOver, overBudgetMessage, watchWrites } from "./run-process.js";
import { findOnPath, type Sandbox } from "./sandbox.js";

const driverCode = readFileSync(join(backendDir, "python", "repl_driver.py"), "utf8");
/** The descriptor the driver answers on (0-2 are the code's, 3 the sandbox's seccomp program). */
const RESULT_FD = 4;
/** A result line longer than this is no result (its output is capped far below): the process is stopped. */
const MAX_RESULT_CHARS = 4 * 1024 * 1024;
/** How long after an answer the code's last output on stdout is waited for. */
const OUTPUT_SETTLE_MS = 5;
/** An answer; in the sandbox the keeper adds how many processes the call left running it stopped, and whether the state was lost. */
const resultSchema = z.object({ id: z.number().int(), ok: z.boolean(), output: z.string(), stopped: z.number().int().nonnegative().optional(), lost: z.boolean().optional() });

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

const strayNote = (n: number) => `[stopped ${n} process${n === 1 ? "" : "es"} this call left running: nothing outlives a call]`;

/**
 * One persistent python3 per chat session, under the sandbox: variables survive between calls.
 * A call past its timeout or its write budget kills the whole process (its state is lost, and the
 * next call says so). Processes a call started (subprocess.Popen, os.fork) end with the call, and in
 * the sandbox so do its threads (python/repl_driver.py: the state moves to a fresh copy after each call).
 */
export class PythonSession {
  private child: ChildProcess | null = null;
  /** What came on the result channel and is not a whole line yet. */
  private results = "";
  private stray = "";
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private lostState = false;
  private pending: { id: number; resolve: (r: PythonRun) => void } | null = null;
  lastUsed = Date.now();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly pythonPath: string,
    /** The chat session this interpreter belongs to (its attachments are the ones it may read). */
    private readonly chatSessionId: string | null = null,
  ) {}

  run(code: string, limits: PythonLimits): Promise<PythonRun> {
    const next = this.queue.then(() => this.runNow(code, limits));
    this.queue = next.catch(() => {});
    return next;
  }

  private start(): ChildProcess {
    const argv = this.sandbox.argv([this.pythonPath, "-u", "-I", "-c", driverCode, "--result-fd", String(RESULT_FD), ...(this.sandbox.isolated ? ["--sandboxed"] : [])], this.chatSessionId);
    const child = spawn(argv[0], argv.slice(1), {
      cwd: this.sandbox.cwd,
      env: this.sandbox.env(),
      detached: true,
      stdio: ["pipe", "pipe", "pipe", this.sandbox.seccomp ? "pipe" : "ignore", "pipe"],
    });
    this.results = "";
    if (this.sandbox.seccomp) handOver(child, this.sandbox.seccomp);
    // Everything the code writes, through print or straight to its descriptors, is output, never a result.
    const keep = (chunk: string) => (this.stray = (this.stray + chunk).slice(-64_000));
    child.stdout!.setEncoding("utf8").on("data", keep);
    child.stderr!.setEncoding("utf8").on("data", keep);
    const results = child.stdio[RESULT_FD] as Readable;
    results.setEncoding("utf8").on("data", (chunk: string) => this.onResult(child, chunk));
    results.on("error", () => {});
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

  /**
   * The driver's answers, one JSON line each. Anything else on this channel (a line that is not
   * JSON, or not an answer, or not the one awaited) is dropped; a line past MAX_RESULT_CHARS stops
   * the process. Nothing that arrives here can throw out of this handler.
   */
  private onResult(child: ChildProcess, chunk: string) {
    if (this.child !== child) return;
    this.results += chunk;
    let end: number;
    while ((end = this.results.indexOf("\n")) >= 0) {
      const line = this.results.slice(0, end);
      this.results = this.results.slice(end + 1);
      let reply: z.infer<typeof resultSchema> | null;
      try {
        const parsed = resultSchema.safeParse(JSON.parse(line));
        reply = parsed.success ? parsed.data : null;
      } catch {
        reply = null;
      }
      if (reply && this.pending && this.pending.id === reply.id) {
        const waiting = this.pending;
        const answer = reply;
        this.pending = null;
        // What the code wrote to stdout before it finished is in that pipe already, read in the same or the
        // next turn of the event loop: take it with this call, not the next.
        const note = answer.stopped ? `\n${strayNote(answer.stopped)}` : "";
        setTimeout(() => waiting.resolve({ ok: answer.ok, output: this.takeStray() + answer.output + note, timedOut: false, stateLost: answer.lost === true }), OUTPUT_SETTLE_MS);
      }
    }
    if (this.results.length > MAX_RESULT_CHARS) {
      this.results = "";
      this.kill();
      const waiting = this.pending;
      this.pending = null;
      waiting?.resolve({ ok: false, output: `${this.takeStray()}Error: the Python process sent an answer too large to be one; it was stopped and its state lost.`, timedOut: false, stateLost: true });
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
          ? watchWrites(
              child.pid,
              limits.maxWriteBytes,
              (_bytes, what) => {
                this.kill();
                finish({
                  ok: false,
                  output:
                    `${this.takeStray()}Error: the code ${overBudgetMessage(limits.maxWriteBytes!, what)}. ` +
                    "The Python process was stopped and will restart on the next call: its state was lost.",
                  timedOut: false,
                  stateLost: true,
                });
              },
              this.sandbox.diskBudget(limits.maxWriteBytes),
            )
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
    // In the sandbox the driver's keeper stopped them (and said so in its answer); unconfined, from here.
    const stopped = !this.sandbox.isolated && this.child === child && child.pid ? await killStrays(child.pid, { wrapped: false }) : 0;
    const note = stopped > 0 ? `\n${strayNote(stopped)}` : "";
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

  /** The interpreter of `key` (a chat session, or a sub-agent's within one), whose tools see `chatSessionId`'s attachments. */
  get(key: string, chatSessionId: string = key): PythonSession | null {
    if (!this.pythonPath) return null;
    let session = this.sessions.get(key);
    if (!session) this.sessions.set(key, (session = new PythonSession(this.sandbox, this.pythonPath, chatSessionId)));
    return session;
  }

  closeAll(): void {
    clearInterval(this.reaper);
    for (const session of this.sessions.values()) session.kill();
    this.sessions.clear();
  }
}
