/**
 * The workbench as its own process (the built `dist/main.js`), as a user runs it: for tests that
 * kill it, attack it, or measure it without sharing an event loop with the client.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { freePort } from "./free-port.js";

export const builtMain = resolve(import.meta.dirname, "..", "dist", "main.js");

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr, in order (its log). */
  output: string[];
  /** What it wrote to stdout alone (where the log goes; Node's own warnings go to stderr). */
  stdout: string[];
  /** Whether the process is still running. */
  alive(): boolean;
}

/**
 * Starts the server with `env` on a free port and resolves once `/api/health` answers. `cleanEnv`:
 * the process gets only PATH and HOME from this one, so nothing else of the test's environment leaks in.
 */
export async function startServerProcess(
  env: Record<string, string>,
  { cleanEnv = false, openFiles }: { cleanEnv?: boolean; /** The process's open-file limit (`ulimit -n`), set with prlimit. */ openFiles?: number } = {},
): Promise<ServerProcess> {
  if (!existsSync(builtMain)) throw new Error("backend/dist is missing: the backend's test script builds it first");
  const port = await freePort();
  const base = cleanEnv ? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" } : process.env;
  const [command, args] = openFiles ? ["prlimit", [`--nofile=${openFiles}:${openFiles}`, "--", process.execPath, builtMain]] : [process.execPath, [builtMain]];
  const child = spawn(command, args, { env: { ...base, APPROVALS: "off", API_CHECK_REPLIES: "on", ...env, PORT: String(port), HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const stdout: string[] = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    output.push(chunk);
    stdout.push(chunk);
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
  let exited = false;
  child.on("exit", () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200 && !exited; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return { child, url, output, stdout, alive: () => !exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not start:\n${output.join("")}`);
}
