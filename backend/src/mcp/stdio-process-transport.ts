/**
 * The MCP stdio transport (newline-delimited JSON-RPC over a child's stdin and stdout), with what a
 * workbench that runs other people's programs needs beyond the SDK's own: the server runs in a
 * process group of its own, and with a mark in its environment that whatever it starts inherits, so
 * stopping it ends everything it started, also what left its group (`setsid`, a daemon's double
 * fork) and its tree (orphans); its stderr's last lines are
 * kept to show; a line that is not JSON-RPC (a stray `console.log`) is counted and skipped, never
 * fatal; one line is capped, so a server cannot grow the workbench's memory without bound, and a
 * line over a megabyte is read off the server's thread (large-message.ts), in order with the rest.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { killTreeAndMarked } from "../lib/process-tree.js";
import { LARGE_MESSAGE_BYTES, type LargeMessageReader } from "./large-message.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The longest single message read from a server (a 50 MB tool result fits). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const STDERR_LINES = 30;
/** How long the close of a server that exited waits for the rest of its stderr. */
const STDERR_DRAIN_MS = 500;
/** How long a server gets after SIGTERM before its whole group is killed. */
const KILL_GRACE_MS = 2_000;
/** The environment variable that marks a server's processes (its value is one per start). */
export const SERVER_MARK = "MINI_OPENCLAW_MCP_SERVER";

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
}

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Lines on stdout that were not JSON-RPC. */
  garbageLines = 0;
  private child: ChildProcess | null = null;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly stderrLines: string[] = [];
  private stderrPartial = "";
  private closed = false;
  private readonly mark = randomBytes(12).toString("hex");
  /** Set once everything the server started was stopped (after it exited). */
  private swept: Promise<void> | null = null;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;

  /** Large lines being read off the thread: the lines after them wait, so messages keep their order. */
  private reading: Promise<void> | null = null;

  constructor(
    private readonly launch: StdioLaunch,
    private readonly largeMessages: LargeMessageReader,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string[] {
    return this.stderrPartial ? [...this.stderrLines, this.stderrPartial].slice(-STDERR_LINES) : [...this.stderrLines];
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.launch.command, this.launch.args, {
        env: { ...this.launch.env, [SERVER_MARK]: this.mark },
        cwd: this.launch.cwd ?? undefined,
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group: stopping the server stops what it started (npx's node, a shell's children).
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      child.once("error", (err) => {
        this.note(`could not start ${this.launch.command}: ${err.message}`);
        reject(err);
        this.finish();
      });
      child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        // What it started may outlive it, in its group or out of it: nothing of a server stays behind it.
        killGroup(child, "SIGKILL");
        this.sweep();
        // Its last words on stderr (why it died) may still be in the pipe: read them before the close is
        // reported, but never wait long for a pipe something else holds open.
        const stderr = child.stderr!;
        if (stderr.closed) return this.finish();
        const read = setTimeout(() => this.finish(), STDERR_DRAIN_MS);
        read.unref();
        stderr.once("close", () => {
          clearTimeout(read);
          this.finish();
        });
      });
      child.stdout!.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr!.on("data", (chunk: Buffer) => this.readStderr(chunk));
      child.stdin!.on("error", (err) => this.onerror?.(err));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || stdin.destroyed) return reject(new Error("the server's process is not running"));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** Ends the server: SIGTERM to its group, SIGKILL to the group if anything is left after the grace time. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return this.finish();
    const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
    child.stdin?.end();
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
    // Its children may outlive it, in the group or out of it: they get the same end.
    killGroup(child, "SIGKILL");
    await this.sweep();
    this.finish();
  }

  /** Stops every process the server's mark is on (once, after it exited). */
  private sweep(): Promise<void> {
    this.swept ??= killTreeAndMarked(null, SERVER_MARK, this.mark).then(() => {});
    return this.swept;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private note(line: string): void {
    this.stderrLines.push(line);
    if (this.stderrLines.length > STDERR_LINES) this.stderrLines.shift();
  }

  private readStderr(chunk: Buffer): void {
    const lines = (this.stderrPartial + chunk.toString("utf8")).split("\n");
    this.stderrPartial = (lines.pop() ?? "").slice(-2_000);
    for (const line of lines) if (line.trim()) this.note(line.slice(0, 2_000));
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.chunks.push(chunk.subarray(start, nl));
      const line = this.chunks.length === 1 ? Buffer.from(this.chunks[0]) : Buffer.concat(this.chunks);
      this.chunks = [];
      this.buffered = 0;
      start = nl + 1;
      this.take(line);
    }
    if (start < chunk.length) {
      this.chunks.push(chunk.subarray(start));
      this.buffered += chunk.length - start;
      if (this.buffered > MAX_LINE_BYTES) {
        this.chunks = [];
        this.buffered = 0;
        this.onerror?.(new Error(`the server wrote a line over ${MAX_LINE_BYTES / 1024 / 1024} MB; it was stopped`));
        void this.close();
      }
    }
  }

  /** A whole line: parsed here when small and nothing is ahead of it, otherwise after what is. */
  private take(line: Buffer): void {
    if (!this.reading && line.length <= LARGE_MESSAGE_BYTES) return this.deliver(line.toString("utf8"));
    const next = (this.reading ?? Promise.resolve()).then(async () => {
      if (line.length <= LARGE_MESSAGE_BYTES) return this.deliver(line.toString("utf8"));
      const read = await this.largeMessages.read(line);
      if ("json" in read) this.deliverJson(read.json, "(a large message)");
      else if ("notJson" in read) this.garbage(read.notJson);
      else this.note(`a message of ${(line.length / 1024 / 1024).toFixed(1)} MB could not be read: ${read.failed}`);
    });
    this.reading = next;
    void next.finally(() => {
      if (this.reading === next) this.reading = null;
    });
  }

  private deliver(line: string): void {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.garbage(text);
      return;
    }
    this.deliverJson(json, text);
  }

  private deliverJson(json: unknown, text: string): void {
    if (this.closed) return;
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) return this.garbage(text);
    this.onmessage?.(parsed.data);
  }

  private garbage(text: string): void {
    this.garbageLines++;
    this.note(`[stdout, not JSON-RPC] ${text.slice(0, 200)}`);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}
