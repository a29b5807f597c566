import { z } from "zod";
import { overBudgetMessage } from "../sandbox/run-process.js";
import { DEGRADED_NOTE } from "../sandbox/sandbox.js";
import { refusedCommandReason } from "../shell/refused-commands.js";
import type { Config } from "../config/config.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import { type AgentIdentity, type CoreTool, defineTool } from "./core-tool.js";
import { callTimeoutMs, timeoutField } from "./sandboxed-call.js";

const schema = z.object({
  command: z.string().min(1).describe("A bash command line, run with the data root as the working directory."),
  timeout_s: timeoutField,
});

/** `terminal`: bash in the sandbox, within the configured time, output and write limits. */
export const terminalTool = ({ sandbox, limits, agent }: { sandbox: Sandbox; limits: Config["sandbox"]; agent: Pick<AgentIdentity, "sessionId"> }): CoreTool<typeof schema> =>
  defineTool({
  name: "terminal",
  description:
    "Run a bash command in the workbench data root (memory/, skills/, workspace/, knowledge/ are writable; sessions/ " +
    "and storage/ read-only). It runs in an OS sandbox: no network, no access to the rest of the machine, no secrets. " +
    "Output (stdout and stderr together) is capped; long-running commands are killed at the timeout.",
  schema,
  async execute(input, { signal }) {
    const refused = refusedCommandReason(input.command);
    if (refused) {
      return {
        ok: false,
        output: `Error: refused by the command blacklist (${refused}). This command is never run; choose a narrower one.`,
        details: { layer: "blacklist", reason: refused },
      };
    }
    const timeoutMs = callTimeoutMs(input.timeout_s, limits);
    const result = await sandbox.run(["/bin/bash", "--noprofile", "--norc", "-c", input.command], {
      timeoutMs,
      maxOutputChars: limits.outputChars,
      signal,
      session: agent.sessionId,
    });
    const lines: string[] = [];
    if (!sandbox.isolated) lines.push(DEGRADED_NOTE);
    lines.push(result.output.length > 0 ? result.output.replace(/\n$/, "") : "(no output)");
    if (result.timedOut) lines.push(`[killed: the command ran past its ${Math.round(timeoutMs / 1000)} s timeout; every process it started was stopped]`);
    else if (result.writeLimited) {
      lines.push(`[killed: the command ${overBudgetMessage(limits.maxWriteBytes, result.writeLimitedBy ?? "written")}; every process it started was stopped]`);
    } else if (result.aborted) lines.push("[stopped: the turn was cancelled]");
    else lines.push(`[exit code ${result.exitCode}]`);
    return {
      ok: !result.timedOut && !result.aborted && !result.writeLimited && result.exitCode === 0,
      output: lines.join("\n"),
      details: {
        exit_code: result.exitCode,
        timed_out: result.timedOut,
        write_limited: result.writeLimited,
        truncated: result.truncated,
        output_chars: result.totalChars,
        sandbox: sandbox.status.mode,
        duration_ms: result.durationMs,
      },
    };
  },
  });
