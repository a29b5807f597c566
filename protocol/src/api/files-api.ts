import { z } from "zod";
import { MAX_PATH_CHARS } from "./limits.js";
import { errorReplies, operation } from "./operation.js";

export const fileReplySchema = z.object({ path: z.string(), content: z.string() }).meta({ id: "FileReply" });
export type FileReply = z.infer<typeof fileReplySchema>;

/** A file the Inspector can open. */
export const workspaceFileSchema = z.object({
  path: z.string(),
  /** `settings`: files of the data root's top level the user edits (APPROVALS.json). */
  group: z.enum(["workspace", "memory", "skills", "agents", "knowledge", "settings"]),
  bytes: z.number().int(),
});
export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;

export const fileListReplySchema = z.object({ files: z.array(workspaceFileSchema) }).meta({ id: "FileListReply" });
export type FileListReply = z.infer<typeof fileListReplySchema>;

export const fileSaveSchema = z.object({ path: z.string().max(MAX_PATH_CHARS), content: z.string() }).meta({ id: "FileSave" });
export const fileSaveReplySchema = z.object({ path: z.string(), saved: z.literal(true), bytes: z.number().int() }).meta({ id: "FileSaveReply" });
export type FileSaveReply = z.infer<typeof fileSaveReplySchema>;

const pathQuery = z.object({ path: z.string().max(MAX_PATH_CHARS).optional() });

export const filesApi = {
  list: operation({ method: "GET", path: "/api/files/list", summary: "The files the Inspector can open, by group", responses: { 200: fileListReplySchema } }),
  read: operation({
    method: "GET",
    path: "/api/files",
    summary: "A text file under the data root (a settings file's credentials masked)",
    querystring: pathQuery,
    responses: { 200: fileReplySchema, ...errorReplies(400, 403, 404, 413, 415, 422) },
  }),
  /** Settings files with a schema: see SCHEMA_FILES. */
  schema: operation({
    method: "GET",
    path: "/api/files/schema",
    summary: "The JSON Schema of a settings file (APPROVALS.json, MCP.json, MODELS.json, TASKS.json), made from the schemas the server checks it with; the editor marks mistakes and completes keys from it",
    querystring: pathQuery,
    responses: { 200: z.record(z.string(), z.unknown()).meta({ id: "JsonSchema" }), ...errorReplies(400, 404) },
  }),
  save: operation({
    method: "POST",
    path: "/api/files",
    summary: "Saves a text file under the data root, atomically (a masked credential is kept as it was)",
    body: fileSaveSchema,
    responses: { 200: fileSaveReplySchema, ...errorReplies(400, 403, 409, 413, 422, 507) },
  }),
};

/** The workbench's settings files, at the top of the data root (named here once, for the server and the UI). */
export const SETTINGS_FILE_NAMES = { approvals: "APPROVALS.json", mcp: "MCP.json", models: "MODELS.json", tasks: "TASKS.json", hooks: "HOOKS.json", web: "WEB.json" } as const;
export type SettingsFileName = (typeof SETTINGS_FILE_NAMES)[keyof typeof SETTINGS_FILE_NAMES];
/** The settings files `GET /api/files/schema` describes (the Inspector's editor asks for these only): every one. */
export const SCHEMA_FILES: readonly SettingsFileName[] = Object.values(SETTINGS_FILE_NAMES);
