/**
 * One MCP server as the workbench keeps it: started (or reached), initialized within its start-up
 * time, its tools, resources and prompts listed; restarted with backoff when it dies after it was up;
 * `failed` with its reason and stderr when it never came up (no restart loop: Restart, or a change
 * to its entry, tries again). Calls go through here with the server's own timeout.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerConfig } from "./mcp-config.js";
import type { LargeMessageReader } from "./large-message.js";
import { MAX_SERVER_SCHEMA_CHARS, type SchemaChecker, schemaText } from "./schema-check.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";

export type McpServerState = "connecting" | "connected" | "failed" | "disabled";

/** A tool as the server listed it. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: unknown;
  readOnly: boolean;
  /** Why no session can use it (its schema is not usable, too large, or too slow to compile); null when it can. */
  schemaProblem: string | null;
}
export interface ListedPrompt {
  name: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

const lenientToolList = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const lenientTool = z.looseObject({
  name: z.string().min(1).max(500),
  title: z.string().optional().catch(undefined),
  description: z.string().optional().catch(undefined),
  inputSchema: z.unknown(),
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional().catch(undefined) }).optional().catch(undefined),
});

/** The most tools, prompts taken from one server (a list beyond is cut, with a warning). */
const MAX_LISTED = 1_000;
/** Pages of `tools/list` read at most: a server that always answers with a next cursor is not followed forever. */
const MAX_PAGES = 20;
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
const CLIENT_INFO = { name: "mini-openclaw", version: "0.1.0" };

export interface McpConnectionDeps {
  /** The environment a stdio server starts with (the model's keys taken out), before its own `env`. */
  env: Record<string, string>;
  /** The data root: a stdio server's default working directory. */
  cwd: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The state or the lists changed (the UI is told). */
  onChange(): void;
  /** Checks tool schemas off the server's thread. */
  schemas: SchemaChecker;
  /** Reads a stdio server's large messages off the server's thread. */
  largeMessages: LargeMessageReader;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class McpConnection {
  state: McpServerState;
  reason: string | null = null;
  tools: ListedTool[] = [];
  prompts: ListedPrompt[] = [];
  hasResources = false;
  restarts = 0;
  warnings: string[] = [];
  private client: Client | null = null;
  private transport: Transport | null = null;
  private lastStderr: string[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private generation = 0;
  private stopped = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: McpConnectionDeps,
  ) {
    this.state = config.disabled ? "disabled" : "connecting";
  }

  get name(): string {
    return this.config.name;
  }

  /** The server's process (stdio), while it runs. */
  get pid(): number | null {
    return this.transport instanceof StdioProcessTransport ? this.transport.pid : null;
  }

  stderrTail(): string[] {
    return this.transport instanceof StdioProcessTransport ? this.transport.stderrTail() : this.lastStderr;
  }

  start(): void {
    if (this.config.disabled) return;
    void this.connect(false);
  }

  /** Restart on request: a failed server tries again at once, the backoff starts over. */
  async restart(): Promise<void> {
    if (this.config.disabled) return;
    this.restarts = 0;
    // Never "connected" while it is being taken down: a session starting now must not count on it.
    this.set("connecting", "restarting on request");
    await this.teardown();
    this.stopped = false;
    void this.connect(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.generation++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    if (this.transport instanceof StdioProcessTransport) this.lastStderr = this.transport.stderrTail();
    this.transport = null;
    await client?.close().catch(() => {});
  }

  private set(state: McpServerState, reason: string | null): void {
    this.state = state;
    this.reason = reason;
    this.deps.onChange();
  }

  private makeTransport(url?: URL, sse = false): Transport {
    const config = this.config;
    if (config.transport === "stdio") {
      return new StdioProcessTransport({
        command: config.command,
        args: config.args,
        env: { ...this.deps.env, ...config.env },
        cwd: config.cwd ?? this.deps.cwd,
      }, this.deps.largeMessages);
    }
    const requestInit = { headers: config.headers };
    const target = url ?? new URL(config.url);
    return sse || config.transport === "sse" ? new SSEClientTransport(target, { requestInit }) : new StreamableHTTPClientTransport(target, { requestInit });
  }

  private async connect(isRestart: boolean): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.stopped;
    this.set("connecting", isRestart ? `restarting after it stopped (restart ${this.restarts})` : null);
    const config = this.config;
    const attempt = async (sse: boolean) => {
      const client = new Client(CLIENT_INFO, { capabilities: {} });
      const transport = this.makeTransport(undefined, sse);
      this.transport = transport;
      this.client = client;
      client.onerror = (err) => this.deps.log.warn({ server: this.name, err: describe(err) }, "MCP server error");
      await withTimeout(client.connect(transport, { timeout: config.startupTimeoutMs }), config.startupTimeoutMs, `it did not answer initialize within ${config.startupTimeoutMs} ms`);
      return client;
    };
    let client: Client;
    try {
      try {
        client = await attempt(false);
      } catch (err) {
        // A server that speaks only the old HTTP+SSE transport refuses Streamable HTTP's POST.
        const status = err instanceof StreamableHTTPError ? err.code : undefined;
        if (config.transport !== "http" || status === undefined || ![400, 404, 405].includes(status) || !current()) throw err;
        await this.client?.close().catch(() => {});
        client = await attempt(true);
      }
      if (!current()) return void client.close().catch(() => {});
      await this.list(client);
    } catch (err) {
      if (!current()) return;
      const why = failureReason(err, this.stderrTail());
      this.deps.log.warn({ server: this.name, reason: why }, "MCP server failed");
      await this.teardown();
      this.set("failed", why);
      return;
    }
    if (!current()) return;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (current()) void this.list(client).then(() => this.deps.onChange()).catch(() => {});
    });
    client.onclose = () => {
      if (!current()) return;
      this.died();
    };
    this.set("connected", null);
    this.deps.log.info({ server: this.name, tools: this.tools.length }, "MCP server connected");
  }

  /** It was up and went away: start it again after a wait that grows with each restart. */
  private died(): void {
    const tail = this.stderrTail();
    if (this.transport instanceof StdioProcessTransport) this.lastStderr = tail;
    const code = this.transport instanceof StdioProcessTransport ? this.transport.exitCode : null;
    const signal = this.transport instanceof StdioProcessTransport ? this.transport.exitSignal : null;
    this.client = null;
    this.transport = null;
    this.generation++;
    const delay = BACKOFF_MS[Math.min(this.restarts, BACKOFF_MS.length - 1)];
    this.restarts++;
    const how = signal ? `killed by ${signal}` : code !== null ? `exited with code ${code}` : "closed the connection";
    this.set("connecting", `it ${how}; restarting in ${delay / 1000} s (restart ${this.restarts})`);
    this.deps.log.warn({ server: this.name, how, restart: this.restarts }, "MCP server stopped; restarting");
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) void this.connect(true);
    }, delay);
    this.retryTimer.unref();
  }

  private async list(client: Client): Promise<void> {
    const warnings: string[] = [];
    const caps = client.getServerCapabilities() ?? {};
    const tools: ListedTool[] = [];
    if (caps.tools) {
      // Read leniently: the SDK's listTools refuses the whole list for one tool whose schema is not an
      // object schema, and such a tool should be left out alone, with its reason shown.
      let cursor: string | undefined;
      const seen = new Set<string>();
      let pages = 0;
      let schemaChars = 0;
      do {
        const page = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, lenientToolList);
        pages++;
        for (const raw of page.tools) {
          if (tools.length >= MAX_LISTED) break;
          const tool = lenientTool.safeParse(raw);
          if (!tool.success) {
            warnings.push(`a tool without a usable name was left out: ${JSON.stringify(raw).slice(0, 120)}`);
            continue;
          }
          const { name, title, description, inputSchema, annotations } = tool.data;
          let schemaProblem: string | null;
          if (schemaChars > MAX_SERVER_SCHEMA_CHARS) {
            schemaProblem = `its input schema is past the ${MAX_SERVER_SCHEMA_CHARS} characters of schemas one server's tools may have in all`;
          } else {
            const text = schemaText(inputSchema);
            schemaChars += "text" in text ? text.text.length : 0;
            schemaProblem = schemaChars > MAX_SERVER_SCHEMA_CHARS ? `its input schema is past the ${MAX_SERVER_SCHEMA_CHARS} characters of schemas one server's tools may have in all` : await this.deps.schemas.problem(inputSchema);
          }
          // A long list is read a tool at a time, never holding the server's thread for all of it.
          await new Promise((resolve) => setImmediate(resolve));
          tools.push({ name, description: description ?? title ?? "", inputSchema, readOnly: annotations?.readOnlyHint === true, schemaProblem });
        }
        const next = page.nextCursor;
        if (next && (seen.has(next) || pages >= MAX_PAGES)) {
          warnings.push(`it kept answering tools/list with another page (${pages} read); the tools of those pages are used`);
          break;
        }
        if (next) seen.add(next);
        cursor = next;
      } while (cursor && tools.length < MAX_LISTED);
    }
    if (tools.length >= MAX_LISTED) warnings.push(`it lists ${MAX_LISTED} tools or more; the first ${MAX_LISTED} are used`);
    const prompts: ListedPrompt[] = [];
    if (caps.prompts) {
      try {
        const page = await client.listPrompts();
        for (const p of page.prompts.slice(0, MAX_LISTED)) {
          prompts.push({ name: p.name, description: p.description ?? "", arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description ?? "", required: a.required === true })) });
        }
      } catch (err) {
        warnings.push(`its prompts could not be listed: ${describe(err)}`);
      }
    }
    this.tools = tools.slice(0, MAX_LISTED);
    this.prompts = prompts;
    this.hasResources = caps.resources !== undefined;
    this.warnings = warnings;
  }

  private live(): Client {
    if (this.state !== "connected" || !this.client) throw new McpUnavailableError(this.name, this.state, this.reason);
    return this.client;
  }

  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return this.live().callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.config.toolTimeoutMs }) as Promise<CallToolResult>;
  }

  readResource(uri: string, signal: AbortSignal) {
    return this.live().readResource({ uri }, { signal, timeout: this.config.toolTimeoutMs });
  }

  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal) {
    return this.live().getPrompt({ name, arguments: args }, { signal, timeout: this.config.toolTimeoutMs });
  }
}

export class McpUnavailableError extends Error {
  constructor(server: string, state: McpServerState, reason: string | null) {
    super(`the MCP server "${server}" is ${state}${reason ? ` (${reason})` : ""}`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Why a server did not come up, in words: the server's own for a refused login, its stderr's last line for a crash. */
function failureReason(err: unknown, stderr: string[]): string {
  if (err instanceof StreamableHTTPError && err.code === 401) return `needs authentication: the server answered 401 (${serverWords(err.message)})`;
  const message = describe(err);
  if (/\b401\b/.test(message) && /unauthori[sz]ed|401/i.test(message)) return `needs authentication: ${message}`;
  const last = stderr.filter((l) => l.trim()).at(-1);
  if (/Connection closed/i.test(message) && last) return `it exited during start-up: ${last}`;
  return message;
}

function serverWords(message: string): string {
  const words = message.replace(/^Error POSTing to endpoint:\s*/, "").trim();
  return words.length > 300 ? `${words.slice(0, 300)}…` : words || "no reason given";
}
