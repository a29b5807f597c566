import type { FileReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import { normalizeUserPath, writeConfinedAtomic } from "../../paths/confined-path.js";
import { readConfinedText, readConfinedTextIfPresent } from "../../paths/read-confined-file.js";
import { maskSecrets, restoreSecrets } from "../../settings/secret-mask.js";
import { settingsFile } from "../../settings/settings-files.js";
import { listWorkspaceFiles } from "../../workspace/list-workspace-files.js";
import { RUNTIME_DIRS, SNAPSHOT_FILE } from "../../workspace/workspace-files.js";

const saveSchema = {
  type: "object",
  required: ["path", "content"],
  properties: { path: { type: "string" }, content: { type: "string" } },
} as const;

function assertWritable(relPath: string) {
  const top = relPath.split("/")[0];
  if ((RUNTIME_DIRS as readonly string[]).includes(top)) {
    throw new UserError(403, `${top}/ is written by the workbench itself; it is read-only here.`);
  }
  if (relPath === SNAPSHOT_FILE) {
    throw new UserError(403, `${SNAPSHOT_FILE} is generated from skills/ at the start of each session; edit the skills instead.`);
  }
}

/**
 * Read and save text files under the data root. Nothing outside it, and never KEY.md; a settings
 * file's credentials leave masked and are kept when the masked text is saved back.
 */
export async function fileRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.get("/api/files/list", async () => ({ files: await listWorkspaceFiles(config.dataRoot) }));

  app.get<{ Querystring: { path?: string } }>("/api/files", async (request): Promise<FileReply> => {
    const relPath = normalizeUserPath(request.query.path, config.locationPrefix);
    const file = await readConfinedText(config.dataRoot, relPath, config.limits.fileBytes);
    const settings = settingsFile(relPath);
    return { path: relPath, content: settings ? maskSecrets(settings, file.content) : file.content };
  });

  app.post<{ Body: { path: string; content: string } }>("/api/files", { schema: { body: saveSchema } }, async (request) => {
    const relPath = normalizeUserPath(request.body.path, config.locationPrefix);
    assertWritable(relPath);
    const bytes = Buffer.byteLength(request.body.content, "utf8");
    if (bytes > config.limits.fileBytes) {
      throw new UserError(413, `The content is ${bytes} bytes, over the ${config.limits.fileBytes}-byte limit for a file.`);
    }
    const settings = settingsFile(relPath);
    const content = settings
      ? restoreSecrets(settings, request.body.content, await readConfinedTextIfPresent(config.dataRoot, relPath, config.limits.fileBytes))
      : request.body.content;
    await writeConfinedAtomic(config.dataRoot, relPath, content);
    return { path: relPath, saved: true, bytes };
  });
}
