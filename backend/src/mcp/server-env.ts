import { MODEL_SETTING_NAMES } from "../config/config.js";
import { readKeyFile } from "../config/key-file.js";

/**
 * The environment an MCP server starts with, and `${VAR}` in MCP.json expands from: the workbench's
 * own, without the model's keys. Names of the model settings go, and so does any variable holding a
 * value KEY.md holds (a key exported under another name is still the key), and the knowledge store's
 * URL (it holds the database's password).
 */
export function environmentForServers(keyFilePath: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const secrets = new Set<string>();
  let fromFile: Record<string, string> = {};
  try {
    fromFile = readKeyFile(keyFilePath);
  } catch {
    // An unreadable KEY.md holds nothing to hide here.
  }
  for (const name of ["OPENAI_API_KEY", "EMBEDDING_API_KEY", "KNOWLEDGE_STORE_URL"]) {
    const value = fromFile[name] ?? env[name];
    if (value && value.length >= 8) secrets.add(value);
  }
  for (const value of Object.values(fromFile)) if (value.length >= 16) secrets.add(value);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if ((MODEL_SETTING_NAMES as string[]).includes(name) || name === "KEY_FILE" || name === "KNOWLEDGE_STORE_URL") continue;
    if (secrets.has(value)) continue;
    out[name] = value;
  }
  return out;
}
