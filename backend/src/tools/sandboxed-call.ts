import { z } from "zod";
import type { Config } from "../config/config.js";

/** The `timeout_s` input shared by the tools that run processes (terminal, python_repl). */
export const timeoutField = z.number().int().min(1).max(600).optional().describe("Wall-clock limit in seconds (default 60).");

/** The call's wall-clock limit: what the model asked for, else the default, never above the maximum. */
export function callTimeoutMs(requestedSeconds: number | undefined, limits: Config["sandbox"]): number {
  return Math.min((requestedSeconds ?? limits.timeoutMs / 1000) * 1000, limits.maxTimeoutMs);
}
