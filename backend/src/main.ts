import { buildApp } from "./app.js";
import { isModelConfigured, loadConfig } from "./config/config.js";
import { ensureKeyFile } from "./config/key-file.js";
import { defaultKeyFile } from "./config/project-paths.js";

// The documented place for credentials exists from the first start (only where the user did not point KEY_FILE elsewhere).
const madeKeyFile = process.env.KEY_FILE ? false : ensureKeyFile(defaultKeyFile);
const config = loadConfig();
// In a terminal, readable lines; piped (to a file, a log collector), one JSON object per line and nothing else.
const app = await buildApp(config, { logger: { level: config.logLevel, pretty: process.stdout.isTTY } });

const shutdown = async (signal: string) => {
  app.log.info({ signal }, "shutting down");
  await app.close();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  await app.listen({ host: config.host, port: config.port });
  if (madeKeyFile) app.log.info(`made ${defaultKeyFile} from KEY.example.md: put your model endpoint there (git ignores it)`);
  app.log.info(`mini OpenClaw is up: http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port} (data root ${config.dataRoot})`);
  if (!isModelConfigured(config.model)) app.log.warn(`no model configured: chat is off until KEY.md (${config.keyFilePath}) has OPENAI_API_KEY or OPENAI_BASE_URL`);
} catch (err) {
  app.log.error({ err }, "could not start");
  process.exit(1);
}
