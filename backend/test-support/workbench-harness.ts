/**
 * Starts a real workbench on 127.0.0.1:0 with a fresh temporary data root, pointed at a scripted
 * model server, for integration tests that talk real HTTP and real SSE.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatEvent, SessionDetail, SessionEntry, StoredEvent, TaskRun, UiEvent } from "@mini-openclaw/protocol";
import { type ChatFrame, readChatEvents, readChatFrames, readUiEvents } from "@mini-openclaw/protocol/sse-reader";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.js";
import { type Config, loadConfig } from "../src/config/config.js";
import { type ModelReply, type ModelScript, type ScriptedModelServer, startScriptedModelServer } from "./scripted-model-server.js";

export interface Workbench {
  url: string;
  config: Config;
  app: FastifyInstance;
  model: ScriptedModelServer;
  dataRoot: string;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  script?: ModelScript | ModelReply[];
  /** Environment on top of the test defaults (e.g. OPENAI_API_KEY). */
  env?: Record<string, string>;
  /** Start without any model configured. */
  noModel?: boolean;
  configure?: (config: Config) => void;
  dataRoot?: string;
  /** Reuse a running model server (it is then left running on close). */
  model?: ScriptedModelServer;
  /** The credentials file (default: one that does not exist, beside the data root). */
  keyFile?: string;
}

export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const model = options.model ?? (await startScriptedModelServer(options.script ?? []));
  if (options.model && options.script) model.setScript(options.script);
  const dataRoot = options.dataRoot ?? (await mkdtemp(join(tmpdir(), "moc-root-")));
  const env: Record<string, string> = {
    WORKBENCH_ROOT: dataRoot,
    MODEL_MAX_RETRIES: "0",
    MODEL_TIMEOUT_MS: "5000",
    // Tools run unattended unless a test is about approvals (it sets APPROVALS: "on").
    APPROVALS: "off",
    API_CHECK_REPLIES: "on",
    // Tasks every second and many runs a minute: the tests of schedules run in seconds (the bounds' own tests set them).
    TASK_MIN_INTERVAL_SECONDS: "1",
    TASK_RUNS_PER_MINUTE: "1000",
    ...(options.noModel ? {} : { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" }),
    ...options.env,
  };
  // A KEY.md path of this workbench's own that does not exist yet: tests never read the developer's
  // real credentials, and settings one test saves never reach another.
  const ownKeyFile = `${dataRoot}-KEY.md`;
  const config = loadConfig(env, options.keyFile ?? ownKeyFile);
  options.configure?.(config);
  const app = await buildApp(config);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    app,
    model,
    dataRoot,
    async close() {
      await app.close();
      if (!options.model) await model.close();
      if (!options.dataRoot) await rm(dataRoot, { recursive: true, force: true });
      if (!options.keyFile) await rm(ownKeyFile, { force: true });
    },
  };
}

export function postJson(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Parses an SSE body into events as they arrive, the way the UI does. */
export function sseEvents(response: Response): AsyncGenerator<ChatEvent> {
  if (!response.body) throw new Error("no body");
  return readChatEvents(response.body);
}

/** Parses an SSE body into numbered frames (`id:` and event), as a client that resumes does. */
export function sseFrames(response: Response): AsyncGenerator<ChatFrame> {
  if (!response.body) throw new Error("no body");
  return readChatFrames(response.body);
}

/** The UI's event stream (`GET /api/events`). */
export function uiEvents(response: Response): AsyncGenerator<UiEvent> {
  if (!response.body) throw new Error("no body");
  return readUiEvents(response.body);
}

/** Every UI event a page would get from now on, collected as they come, and the way to stop listening. */
export async function listenUiEvents(url: string): Promise<{ events: UiEvent[]; stop(): Promise<void> }> {
  const controller = new AbortController();
  const stream = await fetch(`${url}/api/events`, { signal: controller.signal });
  const events: UiEvent[] = [];
  const reading = (async () => {
    try {
      for await (const event of uiEvents(stream)) events.push(event);
    } catch {
      // aborted at the end
    }
  })();
  return {
    events,
    async stop() {
      controller.abort();
      await reading;
    },
  };
}

/** A reply's JSON body, typed as the test expects it. */
export const jsonOf = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

/** A task's (or the heartbeat's) runs, newest first. */
export const taskRuns = (url: string, id: string): Promise<TaskRun[]> => jsonOf<{ runs: TaskRun[] }>(fetch(`${url}/api/tasks/${id}/runs`)).then((r) => r.runs);

/** Sends a streamed chat turn and collects every event. */
export async function chat(wb: Workbench, message: string, sessionId?: string): Promise<ChatEvent[]> {
  const response = await postJson(`${wb.url}/api/chat`, { message, session_id: sessionId, stream: true });
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    throw new Error(`chat refused: ${response.status} ${await response.text()}`);
  }
  const events: ChatEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}

export function sessionIdOf(events: ChatEvent[]): string {
  const first = events.find((e) => e.type === "session");
  if (!first || first.type !== "session") throw new Error(`no session event in ${JSON.stringify(events)}`);
  return first.session_id;
}

/** A stored session, fetched as the Stage fetches it. */
export async function fetchSession(url: string, sessionId: string): Promise<SessionDetail> {
  return (await (await fetch(`${url}/api/sessions/${sessionId}`)).json()) as SessionDetail;
}

/** The events a session stored, in order (every turn's). */
export function storedEvents(entries: SessionEntry[]): StoredEvent[] {
  return entries.flatMap((e) => (e.type === "event" ? [e.event] : []));
}

/** Each entry's kind: its type, or for an event entry the event's type (`user`, `thought`, `tool_call`...). */
export function entryKinds(entries: SessionEntry[]): string[] {
  return entries.map((e) => (e.type === "event" ? e.event.type : e.type));
}

/**
 * The events that frame what a turn says (chat-events.ts): a model request's start and end, a
 * streamed block's start and end, and a tool call's arguments as they are written.
 */
const FRAMING = new Set(["step_start", "step_end", "text_start", "text_end", "thought_start", "thought_end", "tool_input_start", "tool_input_delta", "tool_input_end"]);

/** Kinds without the framing: what the turn said and did, in order. */
export const contentKinds = (kinds: string[]) => kinds.filter((kind) => !FRAMING.has(kind));
