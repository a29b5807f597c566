import { type ChildProcess, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { OutputCap } from "./output-cap.js";
import { DiskBudget } from "./disk-budget.js";
import { treeWrittenBytes } from "../lib/process-tree.js";

export interface RunOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputChars: number;
  /** Bytes the process tree may write in all before it is stopped. */
  maxWriteBytes?: number;
  /** Counts allocated blocks too, under these folders (with `maxWriteBytes`). */
  disk?: { dataRoot: string; folders: string[] };
  /** A seccomp program, handed to the sandbox on descriptor 3 (sandbox-profile.ts SECCOMP_FD). */
  seccomp?: Buffer | null;
  signal?: AbortSignal;
}

export interface RunResult {
  exitCode: number | null;
  /** stdout and stderr interleaved as they arrived, head and tail kept within the cap. */
  output: string;
  truncated: boolean;
  totalChars: number;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped for writing, or leaving on disk, more than `maxWriteBytes`. */
  writeLimited: boolean;
  /** Which count passed the budget, when one did. */
  writeLimitedBy: "written" | "on disk" | null;
  durationMs: number;
}

/** After the main process exits, how long to wait for its pipes to drain. */
const DRAIN_MS = 200;
/** How often a call's written bytes are counted: the budget can be passed by at most this long's writing. */
export const WRITE_SAMPLE_MS = 50;
/** How often the disk's free space is looked at while a call runs (one statfs). */
const DISK_SAMPLE_MS = 10;

/**
 * Calls `onOver` once the tree under `pid` has written more than `maxBytes` since now, or (with a
 * `disk` budget) has left more than that on disk in allocated blocks. Returns a stop function.
 * Counted from /proc and statfs every WRITE_SAMPLE_MS, so a burst between two samples overshoots by that much at most.
 */
export function watchWrites(pid: number, maxBytes: number, onOver: (written: number, what: "written" | "on disk") => void, disk?: DiskBudget): () => void {
  const base = treeWrittenBytes(pid);
  let stopped = false;
  let sampling = false;
  void disk?.start().catch(() => {});
  const over = (bytes: number, what: "written" | "on disk") => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    if (diskTimer) clearInterval(diskTimer);
    onOver(bytes, what);
  };
  const timer = setInterval(() => {
    const written = treeWrittenBytes(pid) - base;
    if (written > maxBytes) over(written, "written");
  }, WRITE_SAMPLE_MS);
  timer.unref();
  // Free space is one statfs: sampled more often, since allocating without writing is fast.
  const diskTimer = disk
    ? setInterval(() => {
        if (sampling || stopped) return;
        sampling = true;
        void disk
          .overBudget()
          .then((bytes) => bytes !== null && over(bytes, "on disk"), () => {})
          .finally(() => (sampling = false));
      }, DISK_SAMPLE_MS)
    : null;
  diskTimer?.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    if (diskTimer) clearInterval(diskTimer);
  };
}

/** The budget's words for the model: what a call may write, or leave on disk. */
export function overBudgetMessage(maxBytes: number, what: "written" | "on disk"): string {
  const mb = Math.round(maxBytes / 1048576);
  return what === "written" ? `wrote more than ${mb} MB, the limit for one call` : `left more than ${mb} MB on disk (allocated blocks), the limit for one call`;
}

/** Writes what the sandbox reads at start (the seccomp program) on descriptor 3, and closes it. */
export function handOver(child: ChildProcess, bytes: Buffer): void {
  const pipe = child.stdio[3] as Writable | null;
  pipe?.on("error", () => {});
  pipe?.end(bytes);
}

/**
 * Runs a program in its own process group and kills the whole group at the timeout. Inside the
 * sandbox, bwrap's pid namespace and --die-with-parent take care of anything that left the group.
 */
export function runProcess(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const cap = new OutputCap(options.maxOutputChars);
  return new Promise((resolve) => {
    const child = spawn(options.argv[0], options.argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe", options.seccomp ? "pipe" : "ignore"],
    });
    if (options.seccomp) handOver(child, options.seccomp);
    let timedOut = false;
    let aborted = false;
    let writeLimited = false;
    let writeLimitedBy: RunResult["writeLimitedBy"] = null;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const stopWatching =
      options.maxWriteBytes && child.pid
        ? watchWrites(
            child.pid,
            options.maxWriteBytes,
            (_bytes, what) => {
              writeLimited = true;
              writeLimitedBy = what;
              killGroup();
            },
            options.disk ? new DiskBudget(options.disk.dataRoot, options.disk.folders, options.maxWriteBytes) : undefined,
          )
        : () => {};
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => cap.push(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => cap.push(chunk));

    const finish = (exitCode: number | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWatching();
      options.signal?.removeEventListener("abort", onAbort);
      if (spawnError) cap.push(`failed to start ${options.argv[0]}: ${spawnError.message}`);
      resolve({
        exitCode,
        output: cap.text(),
        truncated: cap.truncated,
        totalChars: cap.totalChars,
        timedOut,
        aborted,
        writeLimited,
        writeLimitedBy,
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (err) => finish(null, err));
    child.on("close", (code) => finish(code));
    child.on("exit", (code) => {
      // A background process that kept our pipes open must not hold the call: stop waiting.
      setTimeout(() => {
        killGroup();
        child.stdout!.destroy();
        child.stderr!.destroy();
        finish(code);
      }, DRAIN_MS).unref();
    });
  });
}
