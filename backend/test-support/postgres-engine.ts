/**
 * A real PostgreSQL engine started by the test (or benchmark) itself, so nothing needs a system
 * service: PGlite behind a wire-protocol server in a child process (postgres-engine-process.mjs), with or without
 * the `vector` extension. It can be stopped and started again on the same port with its data, which
 * is how a test takes the database away from a running workbench.
 *
 * PGlite runs every client in one PostgreSQL session: that server keeps clients' queries and
 * transactions apart, but session settings and advisory locks are everyone's, which is why the store
 * leases with a row.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const script = resolve(import.meta.dirname, "postgres-engine-process.mjs");

export interface PostgresEngine {
  port: number;
  /** The engine process's id (for its RSS in benchmarks). */
  pid: number;
  /** A connection URL; any password is accepted by the engine (it is there to be kept secret). */
  url(password?: string): string;
  /** Stops the engine (clients' connections end); its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data (nothing when it runs). */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  close(): Promise<void>;
}

export interface PostgresEngineOptions {
  vector: boolean;
  /** Milliseconds each answer takes to reach its client, as from a server across a network (default 0). */
  latencyMs?: number;
}

export async function startPostgresEngine({ vector, latencyMs = 0 }: PostgresEngineOptions): Promise<PostgresEngine> {
  const dir = await mkdtemp(join(tmpdir(), "moc-pg-"));
  let child: ChildProcess | null = null;
  let port = 0;
  const launch = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const started = spawn(process.execPath, [script], {
      env: { ...process.env, PG_ENGINE_DIR: join(dir, "data"), PG_ENGINE_VECTOR: vector ? "1" : "0", PG_ENGINE_PORT: String(port), PG_ENGINE_LATENCY_MS: String(latencyMs) },
      // Its stdin is a pipe from here: when this process ends, however it ends, the engine stops too.
      stdio: ["pipe", "pipe", "pipe"],
    });
    child = started;
    let output = "";
    started.stderr!.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      if (process.env.PG_ENGINE_SLOW_MS) process.stderr.write(text);
    });
    port = await new Promise<number>((resolvePort, reject) => {
      let line = "";
      started.stdout!.setEncoding("utf8").on("data", (text: string) => {
        line += text;
        if (line.includes("\n")) resolvePort((JSON.parse(line.split("\n")[0]) as { port: number }).port);
      });
      started.on("exit", (code) => reject(new Error(`the PostgreSQL engine exited (${code}):\n${output}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once("exit", r));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    get port() {
      return port;
    },
    get pid() {
      return child?.pid ?? 0;
    },
    url: (password = "engine-password") => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop,
    start: launch,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
