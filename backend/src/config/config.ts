import type { ModelSettingName, SearchKeySetting } from "@mini-openclaw/protocol";
import { resolve } from "node:path";
import { pathUnder } from "../lib/path-under.js";
import { readKeyFile } from "./key-file.js";
import { checkCollection, checkStoreUrl } from "./knowledge-store-config.js";
import { readTelemetryConfig, type TelemetryConfig } from "./telemetry-config.js";
import { backendDir, defaultFrontendDir, defaultKeyFile, projectRoot } from "./project-paths.js";

/** The settings the model dialog saves to KEY.md. */
export const MODEL_SETTING_NAMES: ModelSettingName[] = ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY", "EMBEDDING_MODEL", "EMBEDDING_BASE_URL", "EMBEDDING_API_KEY"];

export interface ModelConfig {
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
  /** Longest silence tolerated from the model (first byte or between chunks) before the turn fails. */
  timeoutMs: number;
  maxRetries: number;
}

export interface Limits {
  /** Characters in one chat message. */
  messageChars: number;
  /** Bytes in one file saved through the API. */
  fileBytes: number;
  /** Characters of one workspace file injected into the system prompt. */
  promptFileChars: number;
  /** Characters of the whole system prompt. */
  promptBudgetChars: number;
  /** Characters of the prompt's skills list (SKILLS_SNAPSHOT.md), its own budget: 150 ordinary skills fit whole. */
  skillsListChars: number;
  /** Characters one read_file call returns. */
  readFileChars: number;
  /** Tool-calling rounds in one turn. */
  maxSteps: number;
  /** Estimated tokens a model request may hold before older turns are compacted into a summary. */
  contextBudgetTokens: number;
  /** Turns kept verbatim when the budget forces a compaction. */
  compactKeepTurns: number;
}

export interface SandboxConfig {
  /** SANDBOX=off: run tools without bubblewrap even where it exists (degraded, and said so). */
  disabled: boolean;
  /** SANDBOX_NETWORK=on: tool processes may use the network. */
  network: boolean;
  /** The unprivileged user tools run as when the workbench runs as root. */
  uid: number;
  /** Processes the sandbox user may have at once (a fork bomb's ceiling). */
  maxProcesses: number;
  /** Address space of each sandboxed process (RLIMIT_AS): a larger allocation fails (MemoryError). */
  memoryBytes: number;
  /** Bytes one call's processes may write in all (files, pipes), and the largest file they may make. */
  maxWriteBytes: number;
  /** Size of the sandbox's private /tmp (a tmpfs in memory; emptied when a call's sandbox ends). */
  tmpBytes: number;
  /** Default and longest wall time of one terminal or Python call. */
  timeoutMs: number;
  maxTimeoutMs: number;
  /** Characters of output one call returns (head and tail kept). */
  outputChars: number;
  /** Where to look for bwrap and setpriv: the PATH the workbench was started with. */
  searchPath: string;
}

export interface EmbeddingSettings {
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
}

export interface Config {
  host: string;
  port: number;
  /** Absolute path of the data root (memory, skills, sessions, workspace...). */
  dataRoot: string;
  /** How paths inside the data root are written for the model, e.g. `./backend` or `.`. */
  locationPrefix: string;
  keyFilePath: string;
  /** Model settings the environment sets (they win over KEY.md). */
  modelFromEnvironment: ModelSettingName[];
  /**
   * KEY.md's settings in force: `model`, `profileKeys` and `embedding` are frozen snapshots that a
   * save replaces whole (models/key-settings.ts, their one writer), so a request that took one
   * reads the same settings to its end.
   */
  model: Readonly<ModelConfig>;
  /**
   * The keys of the other model profiles (`MODEL_<NAME>_API_KEY`, protocol's model-profiles-api.ts), from KEY.md and the
   * environment (which wins), by setting name. Never logged, served or passed to a tool.
   */
  profileKeys: Readonly<Record<string, string>>;
  /** The web search providers' keys (KEY.md or the environment), read at start. */
  searchKeys: Readonly<Record<SearchKeySetting, string | null>>;
  /** How long a web search waits for its provider (`WEB_SEARCH_TIMEOUT_MS`, default 10 s). */
  webSearchTimeoutMs: number;
  /** The `browser` tool's Chromium (`BROWSER_PATH`; else the system's chromium or Chrome), and its memory bound in MB (`BROWSER_MEMORY_MB`). */
  browser: { executablePath: string | null; memoryMb: number; loadTimeoutMs: number };
  /** Which of `profileKeys` the environment sets (saving another value there is refused). */
  profileKeysFromEnvironment: string[];
  embedding: Readonly<EmbeddingSettings>;
  fetchAllowlist: string[];
  sandbox: SandboxConfig;
  /** Extra origins allowed to make state-changing requests (e.g. a UI dev server). */
  allowedOrigins: string[];
  limits: Limits;
  delegation: {
    /** How deep sub-agents may delegate (1: only the main agent delegates). */
    maxDepth: number;
    /** Wall time of one sub-agent, its own delegations included. */
    timeoutMs: number;
  };
  /** The reviewer's setting at start (the UI can switch it). */
  reviewerEnabled: boolean;
  /** The change store's total size (earlier file contents) before the oldest calls' records are pruned. */
  checkpointsMaxBytes: number;
  /** `APPROVALS=off`: governed tools run without asking, whatever APPROVALS.json says (unattended runs). */
  approvalsOff: boolean;
  /** Scheduled tasks' bounds: a task's runs at least this far apart, and at most this many runs a minute across all tasks. */
  tasks: { minIntervalSeconds: number; runsPerMinute: number };
  /** Built UI to serve at `/`, if present. */
  frontendDir: string;
  /**
   * The language of the default files a new data root gets (`WORKBENCH_LANGUAGE`: `zh…` Chinese, else
   * English); null when unset: English, and a new data root's first browser may choose.
   */
  defaultsLanguage: "en" | "zh" | null;
  logLevel: string;
  /**
   * `API_CHECK_REPLIES=on` (the test suite, `dev`): each JSON reply is checked against the API contract
   * before it leaves. Off by default: the check parses the whole reply again (~200 ms for a session
   * of 20,000 entries, on the server's thread); the contract test checks every route's replies.
   */
  checkReplies: boolean;
  /** Where turns are exported as OpenTelemetry traces; null: nothing is loaded or sent. */
  telemetry: TelemetryConfig | null;
  /** KNOWLEDGE_STORE_URL: the knowledge index on a PostgreSQL server; null: the embedded SQLite file. */
  knowledgeStore: KnowledgeServerConfig | null;
}

/** A PostgreSQL store for the knowledge index. The URL holds the password: never logged, served or passed to a tool. */
export interface KnowledgeServerConfig {
  url: string;
  /** KNOWLEDGE_COLLECTION; null: derived from the knowledge folder's identity. */
  collection: string | null;
  /** KNOWLEDGE_LEASE_MS: how long an indexing workbench's heartbeat counts before another may take over. */
  leaseMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  messageChars: 100_000,
  fileBytes: 1_000_000,
  promptFileChars: 20_000,
  promptBudgetChars: 100_000,
  skillsListChars: 60_000,
  readFileChars: 50_000,
  maxSteps: 24,
  contextBudgetTokens: 96_000,
  compactKeepTurns: 2,
};

/** A profile's key setting: `MODEL_<NAME>_API_KEY`. */
const PROFILE_KEY = /^MODEL_[A-Z0-9_]+_API_KEY$/;

/** The profile keys KEY.md and the environment hold (the environment wins). */
function profileKeysOf(fromFile: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const source of [fromFile, env]) {
    for (const [name, value] of Object.entries(source)) if (PROFILE_KEY.test(name) && value && value.trim()) keys[name] = value.trim();
  }
  return keys;
}

/** The relative form in which the snapshot and the prompt name files of the data root. */
export function locationPrefixFor(dataRoot: string): string {
  const rel = pathUnder(projectRoot, dataRoot);
  if (!rel) return ".";
  return `./${rel.split("\\").join("/")}`;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

const orNull = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : null);
const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Configuration: KEY.md first, the environment over it. Nothing here is logged or served:
 * the API only ever says whether a key is set.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  keyFilePath = env.KEY_FILE ?? defaultKeyFile,
): Config {
  const fromFile = readKeyFile(keyFilePath);
  const get = (name: string) => {
    const value = env[name];
    return value !== undefined && value !== "" ? value : fromFile[name];
  };
  const dataRoot = resolve(get("WORKBENCH_ROOT") ?? backendDir);
  return {
    host: get("HOST") ?? "127.0.0.1",
    port: intFrom(get("PORT"), 8002, "PORT"),
    dataRoot,
    locationPrefix: locationPrefixFor(dataRoot),
    keyFilePath,
    modelFromEnvironment: MODEL_SETTING_NAMES.filter((name) => (env[name] ?? "") !== ""),
    model: Object.freeze({
      apiKey: orNull(get("OPENAI_API_KEY")),
      baseUrl: orNull(get("OPENAI_BASE_URL")),
      model: orNull(get("OPENAI_MODEL")) ?? "gpt-4o-mini",
      timeoutMs: intFrom(get("MODEL_TIMEOUT_MS"), 120_000, "MODEL_TIMEOUT_MS"),
      maxRetries: intFrom(get("MODEL_MAX_RETRIES"), 2, "MODEL_MAX_RETRIES"),
    }),
    profileKeys: Object.freeze(profileKeysOf(fromFile, env)),
    searchKeys: Object.freeze({ BRAVE_API_KEY: orNull(get("BRAVE_API_KEY")), TAVILY_API_KEY: orNull(get("TAVILY_API_KEY")), SERPER_API_KEY: orNull(get("SERPER_API_KEY")) }),
    webSearchTimeoutMs: intFrom(get("WEB_SEARCH_TIMEOUT_MS"), 10_000, "WEB_SEARCH_TIMEOUT_MS"),
    browser: { executablePath: orNull(get("BROWSER_PATH")), memoryMb: intFrom(get("BROWSER_MEMORY_MB"), 1536, "BROWSER_MEMORY_MB"), loadTimeoutMs: intFrom(get("BROWSER_LOAD_TIMEOUT_MS"), 30_000, "BROWSER_LOAD_TIMEOUT_MS") },
    profileKeysFromEnvironment: Object.keys(env).filter((name) => PROFILE_KEY.test(name) && (env[name] ?? "") !== ""),
    embedding: Object.freeze({
      model: orNull(get("EMBEDDING_MODEL")),
      baseUrl: orNull(get("EMBEDDING_BASE_URL")),
      apiKey: orNull(get("EMBEDDING_API_KEY")),
    }),
    fetchAllowlist: list(get("FETCH_ALLOWLIST")),
    sandbox: {
      disabled: /^(off|0|false|no)$/i.test(get("SANDBOX") ?? ""),
      network: /^(on|1|true|yes)$/i.test(get("SANDBOX_NETWORK") ?? ""),
      uid: intFrom(get("SANDBOX_UID"), 65534, "SANDBOX_UID"),
      maxProcesses: intFrom(get("SANDBOX_MAX_PROCESSES"), 256, "SANDBOX_MAX_PROCESSES"),
      memoryBytes: intFrom(get("SANDBOX_MEMORY_MB"), 2048, "SANDBOX_MEMORY_MB") * 1024 * 1024,
      maxWriteBytes: intFrom(get("SANDBOX_MAX_WRITE_MB"), 256, "SANDBOX_MAX_WRITE_MB") * 1024 * 1024,
      tmpBytes: intFrom(get("SANDBOX_TMP_MB"), 64, "SANDBOX_TMP_MB") * 1024 * 1024,
      timeoutMs: intFrom(get("TOOL_TIMEOUT_MS"), 60_000, "TOOL_TIMEOUT_MS"),
      maxTimeoutMs: 600_000,
      outputChars: intFrom(get("TOOL_OUTPUT_CHARS"), 30_000, "TOOL_OUTPUT_CHARS"),
      searchPath: env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    },
    allowedOrigins: list(get("ALLOWED_ORIGINS")),
    limits: {
      ...DEFAULT_LIMITS,
      skillsListChars: intFrom(get("SKILLS_LIST_CHARS"), DEFAULT_LIMITS.skillsListChars, "SKILLS_LIST_CHARS"),
      contextBudgetTokens: intFrom(get("CONTEXT_BUDGET_TOKENS"), DEFAULT_LIMITS.contextBudgetTokens, "CONTEXT_BUDGET_TOKENS") },
    delegation: {
      maxDepth: intFrom(get("DELEGATE_MAX_DEPTH"), 2, "DELEGATE_MAX_DEPTH"),
      timeoutMs: intFrom(get("DELEGATE_TIMEOUT_MS"), 300_000, "DELEGATE_TIMEOUT_MS"),
    },
    reviewerEnabled: /^(on|1|true|yes)$/i.test(get("REVIEWER") ?? ""),
    checkpointsMaxBytes: intFrom(get("CHECKPOINTS_MAX_MB"), 2048, "CHECKPOINTS_MAX_MB") * 1024 * 1024,
    approvalsOff: /^(off|0|false|no)$/i.test(get("APPROVALS") ?? ""),
    tasks: {
      minIntervalSeconds: Math.max(1, intFrom(get("TASK_MIN_INTERVAL_SECONDS"), 60, "TASK_MIN_INTERVAL_SECONDS")),
      runsPerMinute: Math.max(1, intFrom(get("TASK_RUNS_PER_MINUTE"), 10, "TASK_RUNS_PER_MINUTE")),
    },
    frontendDir: resolve(get("FRONTEND_DIR") ?? defaultFrontendDir),
    defaultsLanguage: get("WORKBENCH_LANGUAGE") ? (/^zh/i.test(get("WORKBENCH_LANGUAGE")!) ? "zh" : "en") : null,
    logLevel: get("LOG_LEVEL") ?? "info",
    checkReplies: /^(on|1|true|yes)$/i.test(get("API_CHECK_REPLIES") ?? ""),
    telemetry: readTelemetryConfig(get),
    knowledgeStore: orNull(get("KNOWLEDGE_STORE_URL"))
      ? {
          url: checkStoreUrl(get("KNOWLEDGE_STORE_URL")!.trim()),
          collection: orNull(get("KNOWLEDGE_COLLECTION")) && checkCollection(get("KNOWLEDGE_COLLECTION")!.trim()),
          leaseMs: Math.max(1000, intFrom(get("KNOWLEDGE_LEASE_MS"), 30_000, "KNOWLEDGE_LEASE_MS")),
        }
      : null,
  };
}

/** A model is usable once there is somewhere to send requests: a key (OpenAI) or a base URL. */
export function isModelConfigured(model: ModelConfig): boolean {
  return model.apiKey !== null || model.baseUrl !== null;
}
