import { readFileSync } from "node:fs";
import { join } from "node:path";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { ChatDeps } from "./chat/chat-deps.js";
import { apiOperations, openApiDocument } from "@mini-openclaw/protocol";
import { ChatTurns } from "./chat/chat-turns.js";
import { useApiContract } from "./http/api-route.js";
import { startTracing } from "./telemetry/tracing.js";
import { TurnRegistry } from "./turns/turn-registry.js";
import type { Config } from "./config/config.js";
import { backendDir } from "./config/project-paths.js";
import { registerSecurityHeaders } from "./http/content-security-policy.js";
import { registerErrorHandler } from "./http/error-handler.js";
import { registerLocalGuard } from "./http/local-guard.js";
import { createGuardedServer } from "./http/connection-guard.js";
import { runningAsRoot } from "./lib/running-as-root.js";
import { chatRoutes } from "./http/routes/chat-routes.js";
import { fileRoutes } from "./http/routes/file-routes.js";
import { knowledgeRoutes } from "./http/routes/knowledge-routes.js";
import { healthRoutes } from "./http/routes/health-routes.js";
import { hookRoutes } from "./http/routes/hook-routes.js";
import { Hooks } from "./hooks/hooks.js";
import { webRoutes } from "./http/routes/web-routes.js";
import { WebSearch } from "./web/web-search.js";
import { Browsers } from "./browser/browsers.js";
import { SessionHosts } from "./approvals/session-hosts.js";
import { sessionRoutes } from "./http/routes/session-routes.js";
import { approvalRoutes } from "./http/routes/approval-routes.js";
import { skillRoutes } from "./http/routes/skill-routes.js";
import { ApprovalGate } from "./approvals/approval-gate.js";
import { ensurePolicyFile } from "./approvals/approval-file.js";
import { workspaceRoutes } from "./http/routes/workspace-routes.js";
import { registerStaticUi } from "./http/static-ui.js";
import { uiEventRoutes } from "./http/routes/ui-event-routes.js";
import { UiEventBus } from "./ui-events/ui-event-bus.js";
import { DelegationRegistry } from "./delegation/delegation-runtime.js";
import { Reviewer } from "./review/reviewer.js";
import { agentRoutes } from "./http/routes/agent-routes.js";
import { attachmentsRoutes } from "./http/routes/attachments-routes.js";
import { AttachmentStore } from "./attachments/attachment-store.js";
import { taskRoutes } from "./http/routes/task-routes.js";
import { TaskRunLog } from "./tasks/task-run-log.js";
import { TaskScheduler } from "./tasks/task-scheduler.js";
import { proposalRoutes } from "./http/routes/proposal-routes.js";
import { replayRoutes } from "./http/routes/replay-routes.js";
import { MemoryHelper } from "./proposals/memory-helper.js";
import { ProposalStore } from "./proposals/proposal-store.js";
import { Proposals } from "./proposals/proposals.js";
import { tasksFileStore } from "./tasks/tasks-file.js";
import { HEARTBEAT_FILE } from "./tasks/heartbeat.js";
import { modelProfilesRoutes } from "./http/routes/model-profiles-routes.js";
import { ModelProfiles } from "./models/model-profiles.js";
import { modelSettingsRoutes } from "./http/routes/model-settings-routes.js";
import { mcpRoutes } from "./http/routes/mcp-routes.js";
import { McpHub } from "./mcp/mcp-hub.js";
import { ChangeTracker } from "./checkpoints/change-tracker.js";
import { changeRoutes } from "./http/routes/change-routes.js";
import { WorkspaceWatcher } from "./ui-events/workspace-watcher.js";
import { embedderFor } from "./knowledge/embedders.js";
import { KnowledgeBase } from "./knowledge/knowledge-base.js";
import { MemoryIndex } from "./memory/memory-index.js";
import { createGuardedAgent } from "./net/guarded-agent.js";
import { PromptLog } from "./prompt/prompt-log.js";
import { PromptHistory } from "./prompt/prompt-history.js";
import { findPython, PythonSessions } from "./sandbox/python-session.js";
import { Sandbox } from "./sandbox/sandbox.js";
import { grantDataDirsToSandbox } from "./sandbox/sandbox-ownership.js";
import { SessionStore } from "./sessions/session-store.js";
import { defaultsFor, seedDataRoot } from "./workspace/seed-data-root.js";
import { DefaultsLanguageChoice } from "./workspace/defaults-language.js";
import { registerReplyScrubber } from "./http/reply-scrubber.js";
import { type LogOptions, scrubbedLogger } from "./secrets/scrubbed-log.js";
import { urlSecrets, workbenchSecrets } from "./secrets/workbench-secrets.js";
import { mcpCredentials } from "./mcp/mcp-credentials.js";

/** How often uploads no message sent, and the attachments of sessions gone, are looked for while running. */
const ATTACHMENT_SWEEP_MS = 10 * 60 * 1000;

const version = (JSON.parse(readFileSync(join(backendDir, "package.json"), "utf8")) as { version: string }).version;

export interface BuildOptions {
  /** The log (written through the secret scrubber); off in tests unless asked for. */
  logger?: LogOptions;
}

/**
 * The whole server as a factory: a data root seeded with defaults, the local guard, the routes.
 * Nothing listens until the caller calls `listen`.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const seeded = await seedDataRoot(config.dataRoot, defaultsFor(config.defaultsLanguage ?? "en"));
  const sandbox = await Sandbox.create(config);
  if (sandbox.isolated) await grantDataDirsToSandbox(config.dataRoot, config.sandbox.uid);
  const python = new PythonSessions(sandbox, findPython(sandbox, config.sandbox.searchPath));
  const fetchAgent = createGuardedAgent({ allowlist: config.fetchAllowlist, connectTimeoutMs: 10_000 });
  // Every secret the workbench holds, removed from whatever leaves it: events, log lines, spans, replies.
  const secrets = workbenchSecrets(config);

  const app = Fastify({
    logger: options.logger ? scrubbedLogger(options.logger, secrets) : false,
    // Requests are logged at debug level below (the UI polls; at info they would bury the turns).
    logController: new LogController({ disableRequestLogging: true }),
    // Room for a file at its size limit, JSON-escaped.
    bodyLimit: Math.max(config.limits.fileBytes, config.limits.messageChars * 4) * 2 + 64 * 1024,
    return503OnClosing: true,
    // Short header and request timeouts, connections capped below the open-file limit (slow clients).
    serverFactory: (handler) => createGuardedServer(handler),
  });
  // A cross-site page can POST text/plain without a preflight: accept JSON bodies only.
  app.removeContentTypeParser("text/plain");

  // Requests and replies checked by the API contract's schemas (protocol's api/).
  useApiContract(app, { checkReplies: config.checkReplies });
  registerErrorHandler(app);
  registerReplyScrubber(app, secrets);
  app.addHook("onResponse", async (request, reply) => {
    request.log.debug({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
  });
  registerSecurityHeaders(app, config.frontendDir);
  registerLocalGuard(app, {
    bindHost: config.host,
    allowedOrigins: config.allowedOrigins,
    // Only as root do tools run as their own user, and only with network can they reach us.
    sandboxUid: runningAsRoot && config.sandbox.network ? config.sandbox.uid : null,
    port: () => {
      const address = app.server.address();
      return typeof address === "object" && address ? address.port : config.port;
    },
  });

  const sessions = new SessionStore(config.dataRoot);
  // Reads every session once in the background, so the first listing and search are warm.
  void sessions.list().catch(() => {});
  const prompts = new PromptLog();
  const promptHistory = new PromptHistory(config.dataRoot);
  const ui = new UiEventBus((event) => secrets.scrubValue(event));
  const knowledge = new KnowledgeBase(config.dataRoot, embedderFor(config), app.log, () => ui.publish({ type: "refresh", target: "knowledge" }), config.knowledgeStore);
  // Index in the background and keep watching: the server answers at once, status shows progress.
  knowledge.start();
  const delegations = new DelegationRegistry(() => ui.publish({ type: "refresh", target: "agents" }));
  const memory = new MemoryIndex(config.dataRoot);
  // The web search provider (WEB.json): read now and watched; web_search is offered while one can run.
  const web = new WebSearch({ dataRoot: config.dataRoot, keys: config.searchKeys, timeoutMs: config.webSearchTimeoutMs, log: app.log, onChange: () => ui.publish({ type: "refresh", target: "health" }) });
  await web.start();
  secrets.addSource(() => urlSecrets(web.endpoint));
  // The sessions' browsers, each started on its session's first browser call, behind the fetch guard's proxy.
  const browsers = new Browsers({
    dataRoot: config.dataRoot,
    executablePath: config.browser.executablePath,
    memoryMb: config.browser.memoryMb,
    loadTimeoutMs: config.browser.loadTimeoutMs,
    runAs: runningAsRoot ? config.sandbox.uid : null,
    allowlist: config.fetchAllowlist,
    log: app.log,
    onChange: () => ui.publish({ type: "refresh", target: "health" }),
  });
  const browserHosts = new SessionHosts();
  const runtime = { config, sandbox, python, fetchAgent, knowledge, memory, secrets, web, browsers };
  // The model profiles (MODELS.json): read now and watched; a change is news for every open page.
  const models = new ModelProfiles({ config, log: app.log, onChange: () => ui.publish({ type: "refresh", target: "health" }) });
  await models.start();
  // Files and images sent with messages; documents are read by the knowledge base's loaders, off this thread.
  const attachments = new AttachmentStore(config.dataRoot, (path, name) => knowledge.extract(path, name));
  // What no session needs any more (uploads never sent, sessions gone) is deleted at start and then
  // every ATTACHMENT_SWEEP_MS while the workbench runs, in the background.
  const sweepAttachments = () =>
    void attachments
      .sweep({ live: (id) => sessions.exists(id), trashed: () => sessions.trashedIds() })
      .then((removed) => removed.records + removed.bytes + removed.folders > 0 && app.log.info(removed, "attachments swept"))
      .catch((err: Error) => app.log.warn({ err: err.message }, "attachment sweep failed"));
  sweepAttachments();
  const attachmentSweeper = setInterval(sweepAttachments, ATTACHMENT_SWEEP_MS).unref();
  const reviewer = new Reviewer({ config, sessions, ui, runtime, models, log: app.log });
  await ensurePolicyFile(config.dataRoot);
  const approvals = new ApprovalGate(() => ui.publish({ type: "refresh", target: "approvals" }));
  // The user's hooks (HOOKS.json, and skills' hooks once trusted): read now and watched.
  const hooks = new Hooks({ dataRoot: config.dataRoot, log: app.log, scrub: (text) => secrets.scrub(text), onChange: () => ui.publish({ type: "refresh", target: "hooks" }) });
  await hooks.start();
  // MCP servers start in the background: a slow or broken one never holds up the workbench or a turn.
  const mcp = new McpHub({ dataRoot: config.dataRoot, keyFilePath: config.keyFilePath, log: app.log, ui });
  await mcp.start();
  // Every file's content is kept once in the background, so a call's changes can be put back.
  const changes = new ChangeTracker(config.dataRoot, app.log, config.checkpointsMaxBytes);
  void changes.start();
  secrets.addSource(() => mcp.configs().flatMap(mcpCredentials));
  const turns = new TurnRegistry({
    onQueueChange: (sessionId, items) => ui.publish({ type: "queue", session_id: sessionId, items }),
    cleanEvent: (event) => secrets.scrubValue(event),
  });
  // Traces only when a collector is configured (the OpenTelemetry modules are not even loaded otherwise).
  const tracing = await startTracing(config.telemetry);
  // The memory helper's proposals (storage/proposals/): applied only by a person, as recorded changes of the turn that proposed them.
  const proposalStore = new ProposalStore(config.dataRoot, app.log);
  proposalStore.ready().catch((err: Error) => app.log.warn({ err: err.message }, "proposals not read"));
  const proposals = new Proposals({
    dataRoot: config.dataRoot,
    store: proposalStore,
    changes,
    secrets,
    promptFileChars: config.limits.promptFileChars,
    changed: () => ui.publish({ type: "refresh", target: "proposals" }),
    written: (path, content) => void userSaved(path, content),
  });
  const memoryHelper = new MemoryHelper({
    dataRoot: config.dataRoot,
    sessions,
    changedFiles: async (id) => (await changes.calls(id)).map((c) => ({ turn: c.turn, tool: c.tool, paths: c.files.map((f) => f.path) })),
    proposals,
    promptFileChars: config.limits.promptFileChars,
  });
  // Scheduled tasks, the heartbeat and the memory consolidation (TASKS.json): each run is a turn, started as the chat route starts one.
  const tasksFile = tasksFileStore({ dataRoot: config.dataRoot, log: app.log, onChange: () => scheduler.changed() });
  const scheduler: TaskScheduler = new TaskScheduler({
    config,
    file: tasksFile,
    runs: new TaskRunLog(config.dataRoot),
    sessions,
    models,
    turns,
    ui,
    startTurn: (request) => chat.start(request),
    log: app.log,
    hooks,
    memory: memoryHelper,
  });
  const chatDeps: ChatDeps = { config, sessions, prompts, promptHistory, turns, runtime, log: app.log, ui, delegations, reviewer, approvals, mcp, changes, tracing, models, attachments, tasks: scheduler, hooks, browserHosts };
  const chat = new ChatTurns(chatDeps);
  await tasksFile.start();
  await scheduler.start();
  const watcher = new WorkspaceWatcher(config.dataRoot);
  app.addHook("onClose", async () => {
    clearInterval(attachmentSweeper);
    tasksFile.close();
    hooks.close();
    web.close();
    await browsers.closeAll();
    // Before the rest: its running runs are stopped and recorded as aborted.
    await scheduler.close();
    reviewer.close();
    watcher.close();
    models.close();
    // Every server and its process group ends with the workbench: no orphans.
    await mcp.close();
    await changes.close();
    await knowledge.close();
    await memory.close();
    python.closeAll();
    sandbox.close();
    await fetchAgent.close();
    await tracing?.shutdown();
  });
  if (!sandbox.isolated) app.log.warn(`tools run without an OS sandbox: ${sandbox.status.detail}`);

  await app.register(healthRoutes, { config, version, sandbox: sandbox.status, pythonPath: python.pythonPath, knowledge, mcp, tracing, models, tasks: tasksFile, hooks });
  await app.register(mcpRoutes, { mcp });
  await app.register(changeRoutes, { config, sessions, turns, changes, ui });
  await app.register(knowledgeRoutes, { knowledge, config });
  await app.register(uiEventRoutes, { watcher, bus: ui });
  await app.register(chatRoutes, { ...chatDeps, chat });
  // What the user saves through the workbench (the Inspector, the first browser's language for the default files) is
  // theirs: the heartbeat runs that checklist (a tool's change waits for them).
  const userSaved = async (path: string, content: string) => {
    if (path.startsWith("memory/")) void hooks.run({ event: "MemoryWrite", names: [path], fields: { by: "user", file_paths: [path] } });
    if (path === HEARTBEAT_FILE) await scheduler.userSavedChecklist(content);
  };
  const defaultsLanguage = new DefaultsLanguageChoice({ dataRoot: config.dataRoot, fromEnvironment: config.defaultsLanguage, freshRoot: seeded.fresh, onWritten: userSaved });
  await app.register(fileRoutes, { config, onUserSaved: userSaved });
  await app.register(sessionRoutes, { sessions, turns, config, changes, ui, models, attachments, hooks, browsers, browserHosts, tasks: scheduler });
  await app.register(workspaceRoutes, { config, prompts, defaultsLanguage });
  await app.register(skillRoutes, { config });
  await app.register(approvalRoutes, { config, gate: approvals });
  await app.register(hookRoutes, { config, hooks, sessions });
  await app.register(webRoutes, { config, web, browsers });
  await app.register(agentRoutes, { config, delegations, reviewer, ui });
  await app.register(modelSettingsRoutes, { config, ui, knowledge, models });
  await app.register(modelProfilesRoutes, { config, models, sessions, ui });
  await app.register(attachmentsRoutes, { attachments });
  await app.register(taskRoutes, { scheduler, allowedOrigins: config.allowedOrigins });
  await app.register(replayRoutes, { sessions, models, promptHistory, startTurn: (request) => chat.start(request), listChanged: () => ui.publish({ type: "refresh", target: "sessions" }) });
  await app.register(proposalRoutes, {
    proposals,
    memory: memoryHelper,
    allowedOrigins: config.allowedOrigins,
    ui,
    startTurn: (request) => chat.start(request),
    helperProfile: () => models.helper("memory") ?? undefined,
    log: app.log,
  });
  // The contract as OpenAPI 3.1, made once, when first asked for.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get("/api/openapi.json", async () => (document ??= openApiDocument(apiOperations(), { title: "Mini-OpenClaw", version, description: "The workbench's HTTP API (README, \"API\"). Errors are `{ error }` with a fitting status; chat streams are SSE." })));
  await registerStaticUi(app, config.frontendDir);
  return app;
}
