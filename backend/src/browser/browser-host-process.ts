/**
 * Starts browser-host (a Node process of its own that runs Playwright's browser server and, under it,
 * Chromium) and ends it: the workbench's thread never does a browser's launching or CDP work.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { LaunchOptions } from "playwright-core";
import { processTree } from "../lib/process-tree.js";

const START_TIMEOUT_MS = 30_000;

export interface BrowserHost {
  /** Where Playwright connects. */
  ws: string;
  /** Chromium's own process (its tree is what the memory bound counts). */
  browserPid: number | null;
  /** Ends Chromium and the host, at once (SIGKILL on whatever is left after a moment). */
  kill(): Promise<void>;
}

/** The host's module: its compiled .js beside this one, or the .ts source under tsx and vitest. */
function hostCommand(): string[] {
  const fromSource = import.meta.url.endsWith(".ts");
  const script = new URL(`./browser-host${fromSource ? ".ts" : ".js"}`, import.meta.url).pathname;
  return fromSource ? ["--import", "tsx", script] : [script];
}

function killTree(pid: number | null | undefined) {
  if (!pid) return;
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/**
 * `runAs`: as root, the host and Chromium run as this unprivileged user (the tools' sandbox user):
 * they can read no file that is only root's (KEY.md), and cannot raise their own priority above the
 * workbench's, as Chromium does for itself when it can.
 */
export async function startBrowserHost(options: LaunchOptions, runAs: number | null): Promise<BrowserHost> {
  // The host gets no more of the workbench's environment than Chromium does: no keys.
  const child: ChildProcess = spawn(process.execPath, [...hostCommand(), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "pipe"],
    ...(runAs !== null ? { uid: runAs, gid: runAs } : {}),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: String(options.env?.HOME ?? "/tmp"), NODE_OPTIONS: "" },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the browser did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).once("line", (first) => {
      clearTimeout(timer);
      resolve(first);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the browser did not start (exit ${code}): ${stderr.split("\n").find((l) => l.trim()) ?? "no reason given"}`));
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  }).catch((err: Error) => {
    child.kill("SIGKILL");
    throw err;
  });
  const { ws, pid } = JSON.parse(line) as { ws: string; pid: number | null };
  return {
    ws,
    browserPid: pid,
    kill: async () => {
      if (child.exitCode !== null) return killTree(pid);
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      // Closing its stdin asks the host to end the browser; what is left after a moment is killed.
      child.stdin?.end();
      const timer = setTimeout(() => {
        killTree(pid);
        child.kill("SIGKILL");
      }, 2000);
      await exited;
      clearTimeout(timer);
      killTree(pid);
    },
  };
}
