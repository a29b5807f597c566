import { api, modelsFileSchema, type SettingsFileName, tasksFileSchema } from "@mini-openclaw/protocol";
import { z } from "zod";
import { policySchema } from "../../approvals/approval-policy.js";
import { mcpFileSchema } from "../../mcp/mcp-config.js";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import { normalizeUserPath, writeConfinedAtomic } from "../../paths/confined-path.js";
import { readConfinedText, readConfinedTextIfPresent } from "../../paths/read-confined-file.js";
import { maskSecrets, restoreSecrets } from "../../settings/secret-mask.js";
import { APPROVALS_FILE, HOOKS_FILE, MCP_FILE, MODELS_FILE, settingsFile, TASKS_FILE, WEB_FILE } from "../../settings/settings-files.js";
import { webFileSchema } from "../../web/web-search.js";
import { hooksFileSchema } from "../../hooks/hooks-file.js";
import { listWorkspaceFiles } from "../../workspace/list-workspace-files.js";
import { RUNTIME_DIRS, SNAPSHOT_FILE } from "../../config/data-root-layout.js";
import { routeOf, typed } from "../api-route.js";

function assertWritable(relPath: string) {
  const top = relPath.split("/")[0];
  if ((RUNTIME_DIRS as readonly string[]).includes(top)) {
    throw new UserError("refused", `${top}/ is written by the workbench itself; it is read-only here.`);
  }
  if (relPath === SNAPSHOT_FILE) {
    throw new UserError("refused", `${SNAPSHOT_FILE} is generated from skills/ at the start of each session; edit the skills instead.`);
  }
}

/**
 * Read and save text files under the data root. Nothing outside it, and never KEY.md; a settings
 * file's credentials leave masked and are kept when the masked text is saved back.
 */
export async function fileRoutes(
  app: FastifyInstance,
  { config, onUserSaved }: { config: Config; /** A file the user saved here (their own words, unlike a tool's write). */ onUserSaved: (path: string, content: string) => Promise<void> },
) {
  typed(app).route({ ...routeOf(api.files.list), handler: async () => ({ files: await listWorkspaceFiles(config.dataRoot) }) });

  typed(app).route({
    ...routeOf(api.files.read),
    handler: async (request) => {
      const relPath = normalizeUserPath(request.query.path, config.locationPrefix);
      const file = await readConfinedText(config.dataRoot, relPath, config.limits.fileBytes);
      const settings = settingsFile(relPath);
      return { path: relPath, content: settings ? maskSecrets(settings, file.content) : file.content };
    },
  });

  // Each settings file's JSON Schema, from the very schema the server checks it with.
  const schemas = new Map<string, Record<string, unknown>>();
  const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  // Every settings file has one: a file added to the list and not here does not build.
  const SCHEMAS: Record<SettingsFileName, z.ZodType> = { [APPROVALS_FILE]: policySchema, [MCP_FILE]: mcpFileSchema, [MODELS_FILE]: modelsFileSchema, [TASKS_FILE]: tasksFileSchema, [HOOKS_FILE]: hooksFileSchema, [WEB_FILE]: webFileSchema };
  const settingsSchema = (path: string): z.ZodType | null => (Object.hasOwn(SCHEMAS, path) ? SCHEMAS[path as SettingsFileName] : null);
  typed(app).route({
    ...routeOf(api.files.schema),
    handler: async (request) => {
      const relPath = normalizeUserPath(request.query.path, config.locationPrefix);
      const schema = settingsSchema(relPath);
      if (!schema) throw new UserError("not_found", `${relPath} is not a settings file with a schema.`);
      if (!schemas.has(relPath)) schemas.set(relPath, jsonSchemaOf(schema));
      return schemas.get(relPath)!;
    },
  });

  typed(app).route({ ...routeOf(api.files.save), handler: async (request) => {
    const relPath = normalizeUserPath(request.body.path, config.locationPrefix);
    assertWritable(relPath);
    const bytes = Buffer.byteLength(request.body.content, "utf8");
    if (bytes > config.limits.fileBytes) {
      throw new UserError("too_large", `The content is ${bytes} bytes, over the ${config.limits.fileBytes}-byte limit for a file.`);
    }
    const settings = settingsFile(relPath);
    const content = settings
      ? restoreSecrets(settings, request.body.content, await readConfinedTextIfPresent(config.dataRoot, relPath, config.limits.fileBytes))
      : request.body.content;
    await writeConfinedAtomic(config.dataRoot, relPath, content);
    await onUserSaved(relPath, content);
    return { path: relPath, saved: true as const, bytes };
  } });
}
