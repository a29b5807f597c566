import { spawn } from "node:child_process";
import { OutputCap } from "./output-cap.js";
import { treeWrittenBytes } from "./process-tree.js";

export interface RunOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputChars: number;
  /** Bytes the process tree may write in all before it is stopped. */
  maxWriteBytes?: number;
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
  /** Stopped for writing more than `maxWriteBytes`. */
  writeLimited: boolean;
  durationMs: number;
}

/** After the main process exits, how long to wait for its pipes to drain. */
const DRAIN_MS = 200;
/** How often a call's written bytes are counted: the budget can be passed by at most this long's writing. */
export const WRITE_SAMPLE_MS = 50;

/**
 * Calls `onOver` once the tree under `pid` has written more than `maxBytes` since now. Returns a
 * stop function. Counted from /proc, so a burst between two samples overshoots by that much at most.
 */
export function watchWrites(pid: number, maxBytes: number, onOver: (written: number) => void): () => void {
  const base = treeWrittenBytes(pid);
  const timer = setInterval(() => {
    const written = treeWrittenBytes(pid) - base;
    if (written > maxBytes) {
      clearInterval(timer);
      onOver(written);
    }
  }, WRITE_SAMPLE_MS);
  timer.unref();
  return () => clearInterval(timer);
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
      stdio: ["ignore", "pipe", "pipe"],
    });
    let timedOut = false;
    let aborted = false;
    let writeLimited = false;
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
        ? watchWrites(child.pid, options.maxWriteBytes, () => {
            writeLimited = true;
            killGroup();
          })
        : () => {};
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => cap.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => cap.push(chunk));

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
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (err) => finish(null, err));
    child.on("close", (code) => finish(code));
    child.on("exit", (code) => {
      // A background process that kept our pipes open must not hold the call: stop waiting.
      setTimeout(() => {
        killGroup();
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, DRAIN_MS).unref();
    });
  });
}
