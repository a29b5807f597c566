/**
 * Every MCP server of `MCP.json`: the file is read at start and watched; a change reconnects only the
 * servers whose entries changed, and invalid JSON keeps the running servers running while the parse
 * error is shown. New sessions take their tool catalog from here; calls find their server here.
 */
import type { McpCatalog, McpReply, McpServerStatus } from "@mini-openclaw/protocol";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import { buildCatalog } from "./mcp-catalog.js";
import { MCP_FILE } from "../settings/settings-files.js";
import { type Parsed, WatchedJsonFile } from "../settings/watched-json-file.js";
import { type McpConfig, MCP_FILE_MAX_BYTES, type McpConfigProblem, type McpServerConfig, parseMcpConfig, sameServer } from "./mcp-config.js";
import { McpConnection } from "./mcp-connection.js";
import { mcpToolName } from "../tool-names/mcp-tool-names.js";
import { environmentForServers } from "./server-env.js";
import { LargeMessageReader } from "./large-message.js";
import { MAX_SCHEMA_CHARS, SchemaChecker } from "./schema-check.js";

export interface McpHubDeps {
  dataRoot: string;
  keyFilePath: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  ui: UiEventBus;
  /** Watch MCP.json for changes (off in tests that drive `reload()` themselves). */
  watch?: boolean;
}

/** MCP.json as the hub applies it: its servers, the entries skipped, and the environment `${VAR}`s were read from. */
type McpFileValue = McpConfig & { env: Record<string, string> };

export class McpHub {
  private readonly connections = new Map<string, McpConnection>();
  private problems: McpConfigProblem[] = [];
  private readonly source: WatchedJsonFile<McpFileValue>;
  /** Reconciling the servers with the file, one change after another. */
  private applying: Promise<void> = Promise.resolve();
  private closed = false;
  /** Tool schemas and call arguments are checked off the server's thread, within deadlines. */
  readonly schemas = new SchemaChecker();
  private readonly largeMessages = new LargeMessageReader(MAX_SCHEMA_CHARS);

  constructor(private readonly deps: McpHubDeps) {
    this.source = new WatchedJsonFile<McpFileValue>({
      dataRoot: deps.dataRoot,
      name: MCP_FILE,
      maxBytes: MCP_FILE_MAX_BYTES,
      parse: (text) => this.parse(text),
      missing: { servers: [], problems: [], env: {} },
      // Unreadable or invalid as a whole: the running servers stay (a bad entry only skips itself).
      lastGood: "the servers already running keep running",
      log: deps.log,
      onChange: () => this.fileChanged(),
      watch: deps.watch,
    });
  }

  private parse(text: string): Parsed<McpFileValue> {
    const env = environmentForServers(this.deps.keyFilePath);
    const parsed = parseMcpConfig(text, env);
    const whole = parsed.problems.find((p) => p.name === null);
    return whole ? { problem: whole.reason } : { value: { ...parsed, env } };
  }

  /** Reads MCP.json and starts its servers (never waits for them: a slow server holds nothing up). */
  async start(): Promise<void> {
    await this.source.start();
    await this.applying;
  }

  /** Reads the file again and applies what changed; calls run one after another. */
  async reload(): Promise<void> {
    await this.source.reload();
    await this.applying;
  }

  private fileChanged(): void {
    if (this.closed) return;
    const problem = this.source.problem;
    if (problem) {
      this.deps.log.warn({ problem }, "MCP.json not applied");
      this.changed();
      return;
    }
    const { servers, problems, env } = this.source.value;
    this.problems = problems;
    for (const p of problems) this.deps.log.warn({ server: p.name, reason: p.reason }, "MCP server entry skipped");
    this.applying = this.applying
      .then(() => (this.closed ? undefined : this.reconcile(servers, env)))
      .then(() => this.changed())
      .catch((err) => this.deps.log.warn({ err }, "MCP.json reload failed"));
  }

  private async reconcile(servers: McpServerConfig[], env: Record<string, string>): Promise<void> {
    const wanted = new Map(servers.map((s) => [s.name, s]));
    const stopping: Promise<void>[] = [];
    for (const [name, connection] of this.connections) {
      const next = wanted.get(name);
      if (next && sameServer(next, connection.config)) {
        connection.config.warnings = next.warnings;
        continue;
      }
      this.connections.delete(name);
      stopping.push(connection.stop());
    }
    await Promise.all(stopping);
    for (const server of servers) {
      if (this.connections.has(server.name)) continue;
      const connection = new McpConnection(server, { env, cwd: this.deps.dataRoot, log: this.deps.log, onChange: () => this.changed(), schemas: this.schemas, largeMessages: this.largeMessages });
      this.connections.set(server.name, connection);
      connection.start();
    }
  }

  private changed(): void {
    if (!this.closed) this.deps.ui.publish({ type: "refresh", target: "mcp" });
  }

  /** The configured servers' entries (for the secret scrubber: their credentials). */
  configs(): McpServerConfig[] {
    return [...this.connections.values()].map((c) => c.config);
  }

  get(server: string): McpConnection | undefined {
    return this.connections.get(server);
  }

  /** Whether MCP.json names any server: sessions started without one record no MCP catalog. */
  get configured(): boolean {
    return this.connections.size > 0;
  }

  /** The tools a session starting now gets (fixed in its file from then on). */
  catalog(): McpCatalog | undefined {
    return this.configured ? buildCatalog([...this.connections.values()]) : undefined;
  }

  async restart(server: string): Promise<boolean> {
    const connection = this.connections.get(server);
    if (!connection) return false;
    await connection.restart();
    return true;
  }

  status(): McpReply {
    const taken = new Set<string>();
    const servers: McpServerStatus[] = [...this.connections.values()].map((c) => {
      const config = c.config;
      return {
        name: c.name,
        state: c.state,
        transport: config.transport === "stdio" ? "stdio" : "http",
        source: MCP_FILE,
        target: config.display,
        reason: c.reason,
        tools: c.tools.map((t) => {
          const problem = t.schemaProblem ?? undefined;
          return { name: t.name, exposed_as: problem ? null : mcpToolName(c.name, t.name, taken), description: t.description, read_only: t.readOnly, ...(problem ? { problem } : {}) };
        }),
        prompts: c.prompts.map((p) => ({ name: p.name, description: p.description })),
        resources: c.hasResources,
        stderr: c.stderrTail(),
        warnings: [...config.warnings, ...c.warnings],
        restarts: c.restarts,
        pid: c.pid,
      };
    });
    return { file: { path: MCP_FILE, exists: this.source.exists, problem: this.source.problem }, servers, problems: this.problems };
  }

  health(): { configured: number; connected: number; failed: number; problems: string[] } {
    const all = [...this.connections.values()];
    const problems = [
      ...(this.source.problem ? [this.source.problem] : []),
      ...this.problems.map((p) => `${MCP_FILE}: "${p.name}": ${p.reason}`),
      ...all.filter((c) => c.state === "failed").map((c) => `MCP server "${c.name}" failed: ${c.reason ?? "no reason given"}`),
    ];
    return { configured: all.length, connected: all.filter((c) => c.state === "connected").length, failed: all.filter((c) => c.state === "failed").length, problems };
  }

  /** Ends every server and its process group (the workbench is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    this.source.close();
    await this.applying;
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
    await this.schemas.close();
    await this.largeMessages.close();
  }
}
