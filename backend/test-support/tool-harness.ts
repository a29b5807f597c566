/**
 * Runs the real core tools against a fresh project folder: `<project>/KEY.md` beside the data root
 * `<project>/backend`, seeded with the defaults, with the real sandbox, Python sessions and fetch guard.
 */
import { runningAsRoot } from "../src/lib/running-as-root.js";
import { workbenchSecrets } from "../src/secrets/workbench-secrets.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../src/config/config.js";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { MemoryIndex } from "../src/memory/memory-index.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";
import { createGuardedAgent, type Lookup } from "../src/net/guarded-agent.js";
import { findOnPath, Sandbox } from "../src/sandbox/sandbox.js";
import { grantDataDirsToSandbox } from "../src/sandbox/sandbox-ownership.js";
import { findPython, PythonSessions } from "../src/sandbox/python-session.js";
import type { ToolName } from "../src/tool-names/core-tool-names.js";
import type { AgentIdentity, CoreTool, ToolCall, ToolResult, ToolRuntime } from "../src/tools/core-tool.js";
import { WebSearch } from "../src/web/web-search.js";
import { Browsers } from "../src/browser/browsers.js";
import { coreTools } from "../src/tools/core-tools.js";
import { seedDataRoot } from "../src/workspace/seed-data-root.js";

export const SECRET_KEY = "sk-test-SECRET-do-not-leak-7f3a";

export interface ToolHarness {
  project: string;
  dataRoot: string;
  keyFile: string;
  config: Config;
  runtime: ToolRuntime;
  /** The core tools as the main agent of session `tool-test` gets them. */
  tools: CoreTool[];
  /** Runs a core tool by name, as the agent loop would (after its schema check). */
  run(name: ToolName, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
  close(): Promise<void>;
}

/** A call outside an agent turn: nowhere to stream nested events, never aborted unless `signal` is. */
export const testCall = (signal = new AbortController().signal): ToolCall => ({ id: "call_test", signal, write: () => {} });

export const TEST_AGENT: AgentIdentity = { sessionId: "tool-test", depth: 0, roles: [] };

export async function startToolHarness(options: { env?: Record<string, string>; lookup?: Lookup } = {}): Promise<ToolHarness> {
  const project = await mkdtemp(join(tmpdir(), "moc-project-"));
  const dataRoot = join(project, "backend");
  const keyFile = join(project, "KEY.md");
  await writeFile(keyFile, `OPENAI_API_KEY=${SECRET_KEY}\n`);
  const config = loadConfig({ WORKBENCH_ROOT: dataRoot, PATH: process.env.PATH ?? "", ...options.env }, keyFile);
  await seedDataRoot(dataRoot);
  const sandbox = await Sandbox.create(config);
  if (sandbox.isolated) await grantDataDirsToSandbox(dataRoot, config.sandbox.uid);
  const python = new PythonSessions(sandbox, findPython(sandbox, config.sandbox.searchPath));
  const fetchAgent = createGuardedAgent({ allowlist: config.fetchAllowlist, connectTimeoutMs: 5000, lookup: options.lookup });
  const knowledge = new KnowledgeBase(dataRoot, offlineEmbedder);
  const memory = new MemoryIndex(dataRoot);
  const web = new WebSearch({ dataRoot, keys: config.searchKeys, timeoutMs: config.webSearchTimeoutMs, log: { warn: () => {} }, onChange: () => {}, watch: false });
  await web.start();
  const browsers = new Browsers({ dataRoot, executablePath: config.browser.executablePath, memoryMb: config.browser.memoryMb, loadTimeoutMs: config.browser.loadTimeoutMs, runAs: runningAsRoot ? config.sandbox.uid : null, allowlist: config.fetchAllowlist, lookup: options.lookup, log: { warn: () => {} } });
  const runtime: ToolRuntime = { config, sandbox, python, fetchAgent, knowledge, memory, secrets: workbenchSecrets(config), web, browsers };
  const tools = coreTools(runtime, TEST_AGENT);
  return {
    project,
    dataRoot,
    keyFile,
    config,
    runtime,
    tools,
    run(name, input, signal) {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no core tool ${name}`);
      return tool.execute(tool.schema.parse(input), testCall(signal));
    },
    async close() {
      python.closeAll();
      sandbox.close();
      await fetchAgent.close();
      await browsers.closeAll();
      await memory.close();
      await knowledge.close();
      await rm(project, { recursive: true, force: true });
    },
  };
}

/** Whether bubblewrap can be used here; in CI it must be (the suite fails rather than skips). */
export function sandboxExpected(): { available: boolean; required: boolean } {
  return { available: findOnPath("bwrap", process.env.PATH ?? "") !== null, required: process.env.CI === "true" };
}
