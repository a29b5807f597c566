import { z } from "zod";
import { DEGRADED_NOTE } from "../sandbox/sandbox.js";
import type { Config } from "../config/config.js";
import type { PythonSessions } from "../sandbox/python-session.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import { type AgentIdentity, type CoreTool, defineTool } from "./core-tool.js";
import { callTimeoutMs, timeoutField } from "./sandboxed-call.js";

const schema = z.object({
  code: z.string().min(1).describe("Python 3 code. Variables, imports and functions persist between calls in this session."),
  timeout_s: timeoutField,
});

/** `python_repl`: the caller's own persistent interpreter, in the sandbox. */
export const pythonReplTool = ({
  sandbox,
  python,
  limits,
  agent,
}: {
  sandbox: Sandbox;
  python: Pick<PythonSessions, "get">;
  limits: Config["sandbox"];
  agent: AgentIdentity;
}): CoreTool<typeof schema> =>
  defineTool({
  name: "python_repl",
  description:
    "Run Python 3 code in a persistent interpreter for this chat session (state survives between calls; the value of " +
    "a final expression is printed). Working directory: the data root. Sandboxed like terminal: no network, no " +
    "secrets, only the data folders writable. A call past its timeout restarts the interpreter and loses its state.",
  schema,
  async execute(input, { signal }) {
    // Each sub-agent role keeps its own interpreter: parallel sub-agents must not share variables.
    const session = python.get([agent.sessionId, ...agent.roles].join("/"), agent.sessionId);
    if (!session) {
      return {
        ok: false,
        output: "Error: python3 is not installed where the sandbox can run it (/usr/bin/python3). Install it with `apt-get install python3`.",
      };
    }
    const timeoutMs = callTimeoutMs(input.timeout_s, limits);
    const run = await session.run(input.code, { timeoutMs, maxOutputChars: limits.outputChars, maxWriteBytes: limits.maxWriteBytes, signal });
    const lines: string[] = [];
    if (!sandbox.isolated) lines.push(DEGRADED_NOTE);
    if (run.stateLost && !run.timedOut) lines.push("[note: the previous Python process had stopped; this call started a fresh one and earlier state was lost]");
    lines.push(run.output.length > 0 ? run.output.replace(/\n$/, "") : "(no output)");
    return {
      ok: run.ok,
      output: lines.join("\n"),
      details: { timed_out: run.timedOut, state_lost: run.stateLost, sandbox: sandbox.status.mode },
    };
  },
  });
