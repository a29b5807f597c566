/**
 * Runs the real core tools against a fresh project folder: `<project>/KEY.md` beside the data root
 * `<project>/backend`, seeded with the defaults, with the real sandbox, Python sessions and fetch guard.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../src/config/config.js";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";
import { createGuardedAgent, type Lookup } from "../src/net/guarded-agent.js";
import { findOnPath, Sandbox } from "../src/sandbox/sandbox.js";
import { grantDataDirsToSandbox } from "../src/sandbox/sandbox-ownership.js";
import { findPython, PythonSessions } from "../src/sandbox/python-session.js";
import { DelegationRegistry, delegationRuntime } from "../src/delegation/delegation-runtime.js";
import type { CoreTool, ToolCall, ToolContext, ToolResult } from "../src/tools/core-tool.js";
import { seedDataRoot } from "../src/workspace/seed-data-root.js";

export const SECRET_KEY = "sk-test-SECRET-do-not-leak-7f3a";

export interface ToolHarness {
  project: string;
  dataRoot: string;
  keyFile: string;
  config: Config;
  context: ToolContext;
  run<T extends CoreTool>(tool: T, input: Parameters<T["execute"]>[0], signal?: AbortSignal): Promise<ToolResult>;
  close(): Promise<void>;
}

/** Tools run outside an agent turn have nowhere to stream nested events. */
export const NO_CALL: ToolCall = { id: "call_test", write: () => {} };

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
  const context: ToolContext = {
    config,
    sessionId: "tool-test",
    sandbox,
    python,
    fetchAgent,
    knowledge,
    signal: new AbortController().signal,
    agent: { depth: 0, roles: [] },
    delegation: delegationRuntime(config, [], new DelegationRegistry(), console, 0),
  };
  return {
    project,
    dataRoot,
    keyFile,
    config,
    context,
    run: (tool, input, signal) => tool.execute(input, signal ? { ...context, signal } : context, NO_CALL),
    async close() {
      python.closeAll();
      sandbox.close();
      await fetchAgent.close();
      await rm(project, { recursive: true, force: true });
    },
  };
}

/** Whether bubblewrap can be used here; in CI it must be (the suite fails rather than skips). */
export function sandboxExpected(): { available: boolean; required: boolean } {
  return { available: findOnPath("bwrap", process.env.PATH ?? "") !== null, required: process.env.CI === "true" };
}
