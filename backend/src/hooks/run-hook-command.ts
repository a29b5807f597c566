/**
 * One hook command as a process: `sh -c <command>` in its own process group, the event's JSON on
 * stdin, stdout and stderr read up to a cap, killed (with its whole group, and anything it started
 * that left the group) at its timeout, when it prints past the cap, or when it exits: a hook
 * never leaves a process behind. Never throws: a command that cannot start is a result too.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { setPriority } from "node:os";
import { killTreeAndMarked } from "../lib/process-tree.js";

export interface HookProcessResult {
  /** Null when it did not exit by itself (killed, or never started). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Why it was ended or never ran: its timeout, its output over the cap, a spawn error. */
  failure?: string;
}

export interface HookProcessOptions {
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  /** Bytes of stdout and of stderr read, each; past it the hook is killed. */
  maxBytes: number;
}

/** How much lower than the server's a hook's CPU priority is (nice). */
const HOOK_NICENESS = 10;

/** The environment mark every process a hook starts carries, to find the ones that left its group. */
const MARK = "MINI_OPENCLAW_HOOK_RUN";

/**
 * The marks of runs that ended and were not swept yet: one look through every process's environment
 * serves all the runs that ended within a quarter second (a hook on every call of a busy turn would
 * otherwise read /proc whole for each).
 */
const unswept = new Set<string>();
let sweep: NodeJS.Timeout | null = null;
function sweepSoon(mark: string): void {
  unswept.add(mark);
  sweep ??= setTimeout(() => {
    const marks = [...unswept];
    unswept.clear();
    sweep = null;
    void killTreeAndMarked(null, MARK, marks).catch(() => {});
  }, 250);
  sweep.unref();
}

/**
 * Spawns wait their turn, one per turn of the event loop: the hooks of one event all start at once,
 * and forking them in one tick would hold the loop (and every request) for all their forks together.
 */
let spawnTurn: Promise<void> = Promise.resolve();
function nextSpawnTurn(): Promise<void> {
  spawnTurn = spawnTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return spawnTurn;
}

export async function runHookCommand(command: string, options: HookProcessOptions): Promise<HookProcessResult> {
  await nextSpawnTurn();
  const started = performance.now();
  const mark = randomUUID();
  return new Promise((resolve) => {
    let failure: string | undefined;
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: { stdout: 0, stderr: 0 } };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn("/bin/sh", ["-c", command], { cwd: options.cwd, env: { ...options.env, [MARK]: mark }, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (err) {
      resolve({ exitCode: null, stdout: "", stderr: "", durationMs: performance.now() - started, failure: `it could not be started (${(err as Error).message})` });
      return;
    }
    // Below the server's priority: a hook that burns CPU never slows the workbench's answers (its children inherit it).
    try {
      if (child.pid) setPriority(child.pid, HOOK_NICENESS);
    } catch {
      // gone already, or not allowed: it runs at the server's priority
    }
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is gone
      }
    };
    const end = (why: string) => {
      failure ??= why;
      killGroup();
    };
    const timer = setTimeout(() => end(`it ran past its timeout of ${options.timeoutMs / 1000} s and was killed`), options.timeoutMs);
    timer.unref();
    const read = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      const room = options.maxBytes - out.bytes[stream];
      // A byte past the cap ends it, whether or not the chunks before filled the cap exactly.
      if (chunk.length > room) end(`it printed more than ${options.maxBytes} bytes to ${stream} and was killed`);
      if (room <= 0) return;
      out[stream].push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      out.bytes[stream] += Math.min(chunk.length, room);
    };
    child.stdout!.on("data", read("stdout"));
    child.stderr!.on("data", read("stderr"));
    // A hook that does not read its input closes the pipe early: that is its business.
    child.stdin!.on("error", () => {});
    child.stdin!.end(options.stdin);
    let settled = false;
    let exitCode: number | null = null;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        exitCode: failure ? null : exitCode,
        stdout: Buffer.concat(out.stdout).toString("utf8"),
        stderr: Buffer.concat(out.stderr).toString("utf8"),
        durationMs: performance.now() - started,
        ...(failure ? { failure } : {}),
      });
    };
    child.on("error", (err) => {
      failure ??= `it could not be started (${err.message})`;
      finish();
    });
    // What it left running goes with it: its group at once, then anything that left the group. The
    // output is complete when the pipes close, which a child that escaped could delay: not past a moment.
    child.on("exit", (code) => {
      exitCode = code;
      killGroup();
      sweepSoon(mark);
      setTimeout(finish, 500).unref();
    });
    child.on("close", finish);
  });
}
