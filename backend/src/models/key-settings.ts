/**
 * KEY.md's model settings (`OPENAI_*`, `EMBEDDING_*`, and each profile's key) as the workbench holds
 * them: the one place that changes them. A save writes only what differs to KEY.md and puts it in
 * force from the next request on, as new snapshots (a request that took the old ones keeps them); a setting the environment sets wins over KEY.md, so saving another
 * value for it is refused (409) rather than silently undone at the next start. The Model dialog
 * (`/api/model`) and the profiles (`/api/models`, models/model-profiles.ts) both save through here.
 */
import type { Config } from "../config/config.js";
import { updateKeyFile } from "../config/key-file.js";
import { UserError } from "../lib/user-error.js";

/** A setting's value in force now ("" for none). */
export function keySetting(config: Config, name: string): string {
  switch (name) {
    case "OPENAI_API_KEY":
      return config.model.apiKey ?? "";
    case "OPENAI_BASE_URL":
      return config.model.baseUrl ?? "";
    case "OPENAI_MODEL":
      return config.model.model;
    case "EMBEDDING_MODEL":
      return config.embedding.model ?? "";
    case "EMBEDDING_BASE_URL":
      return config.embedding.baseUrl ?? "";
    case "EMBEDDING_API_KEY":
      return config.embedding.apiKey ?? "";
    default:
      return config.profileKeys[name] ?? "";
  }
}

type KeySnapshot = Pick<Config, "model" | "embedding" | "profileKeys">;

/** The settings in force after `changed`: new frozen objects, the ones in force left as they were. */
function nextSnapshot(now: KeySnapshot, changed: Array<[string, string]>): KeySnapshot {
  const model = { ...now.model };
  const embedding = { ...now.embedding };
  const profileKeys = { ...now.profileKeys };
  for (const [name, value] of changed) {
    const orNull = value || null;
    if (name === "OPENAI_API_KEY") model.apiKey = orNull;
    else if (name === "OPENAI_BASE_URL") model.baseUrl = orNull;
    else if (name === "OPENAI_MODEL") model.model = value;
    else if (name === "EMBEDDING_MODEL") embedding.model = orNull;
    else if (name === "EMBEDDING_BASE_URL") embedding.baseUrl = orNull;
    else if (name === "EMBEDDING_API_KEY") embedding.apiKey = orNull;
    else if (value) profileKeys[name] = value;
    else delete profileKeys[name];
  }
  return { model: Object.freeze(model), embedding: Object.freeze(embedding), profileKeys: Object.freeze(profileKeys) };
}

/** The settings that differ from what is in force; refused whole (409) if the environment sets one of them. */
export function keySettingsToSave(config: Config, values: Record<string, string>): Array<[string, string]> {
  const changed = Object.entries(values).filter(([name, value]) => value !== keySetting(config, name));
  const blocked = changed.filter(([name]) => config.modelFromEnvironment.includes(name as never) || config.profileKeysFromEnvironment.includes(name)).map(([name]) => name);
  if (blocked.length > 0) throw new UserError("conflict", `${blocked.join(", ")} ${blocked.length === 1 ? "is" : "are"} set in the environment, which wins over KEY.md: change ${blocked.length === 1 ? "it" : "them"} there.`);
  return changed;
}

/** Writes `keySettingsToSave`'s answer to KEY.md and puts it in force. */
export async function writeKeySettings(config: Config, changed: Array<[string, string]>): Promise<void> {
  if (changed.length === 0) return;
  await updateKeyFile(config.keyFilePath, Object.fromEntries(changed));
  // One synchronous step: no reader sees a key from the new settings with the old base URL.
  const next = nextSnapshot(config, changed);
  config.model = next.model;
  config.embedding = next.embedding;
  config.profileKeys = next.profileKeys;
}

/** Saves the settings that differ to KEY.md and puts them in force (refused as `keySettingsToSave` says). */
export async function saveKeySettings(config: Config, values: Record<string, string>): Promise<void> {
  await writeKeySettings(config, keySettingsToSave(config, values));
}
