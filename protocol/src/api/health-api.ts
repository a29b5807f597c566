import { z } from "zod";
import { operation } from "./operation.js";

export const healthReplySchema = z
  .object({
    ok: z.literal(true),
    version: z.string(),
    data_root: z.string(),
    /** How paths in the data root are written in skill locations and the prompt, e.g. `./backend`. */
    location_prefix: z.string(),
    model: z.object({ configured: z.boolean(), model: z.string().nullable(), base_url: z.string().nullable(), hint: z.string().optional() }),
    /** How tool processes are confined: "degraded" means no OS sandbox (and every tool result says so). */
    sandbox: z.object({ mode: z.enum(["bubblewrap", "degraded"]), detail: z.string(), network: z.boolean(), hint: z.string().optional() }),
    python: z.object({ available: z.boolean(), hint: z.string().optional() }),
    /** Knowledge search: hybrid, or BM25 alone while the embedding endpoint fails. */
    knowledge: z.object({ documents: z.number().int(), chunks: z.number().int(), mode: z.enum(["hybrid", "bm25"]), embedder: z.string(), error: z.string().optional() }),
    /** Why APPROVALS.json is not used as written (it names the file and the error): then every call asks. */
    approvals: z.object({ problem: z.string().nullable() }),
    /** The model profiles: the default's name, how many, and why MODELS.json is not in use (the last good profiles are). */
    models: z.object({ default: z.string(), count: z.number().int(), problem: z.string().nullable() }),
    /** Scheduled tasks (TASKS.json): how many, whether the heartbeat is on, and why the file is not used as written. */
    tasks: z.object({ count: z.number().int(), heartbeat: z.boolean(), problem: z.string().nullable() }),
    /** Hooks (HOOKS.json and trusted skills' hooks): how many run, and why HOOKS.json is not used as written (the last good hooks are). */
    hooks: z.object({ count: z.number().int(), problem: z.string().nullable() }),
    /** MCP servers from MCP.json: how many are up, how many failed, and what is wrong in words (the file's own problem included). */
    mcp: z.object({ configured: z.number().int(), connected: z.number().int(), failed: z.number().int(), problems: z.array(z.string()) }),
    /** Traces (OTEL_EXPORTER_OTLP_ENDPOINT): spans sent, and spans dropped (the queue full, an export failed or timed out). */
    tracing: z.object({ enabled: z.boolean(), exported_spans: z.number().int(), dropped_spans: z.number().int() }),
    uptime_s: z.number().int(),
  })
  .meta({ id: "HealthReply" });
export type HealthReply = z.infer<typeof healthReplySchema>;

export const healthApi = {
  health: operation({ method: "GET", path: "/api/health", summary: "Whether the workbench is up, and what it runs with: model, sandbox, knowledge, MCP, traces", responses: { 200: healthReplySchema } }),
};
