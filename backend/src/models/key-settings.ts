/**
 * KEY.md's model settings (`OPENAI_*`, `EMBEDDING_*`, and each profile's key) as the workbench holds
 * them: the one place that changes them. A save writes only what differs to KEY.md and puts it in
 * force from the next request on; a setting the environment sets wins over KEY.md, so saving another
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

function apply(config: Config, name: string, value: string): void {
  const orNull = value || null;
  if (name === "OPENAI_API_KEY") config.model.apiKey = orNull;
  else if (name === "OPENAI_BASE_URL") config.model.baseUrl = orNull;
  else if (name === "OPENAI_MODEL") config.model.model = value;
  else if (name === "EMBEDDING_MODEL") config.embedding.model = orNull;
  else if (name === "EMBEDDING_BASE_URL") config.embedding.baseUrl = orNull;
  else if (name === "EMBEDDING_API_KEY") config.embedding.apiKey = orNull;
  else if (value) config.profileKeys[name] = value;
  else delete config.profileKeys[name];
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
  if (changed.length > 0) await updateKeyFile(config.keyFilePath, Object.fromEntries(changed));
  for (const [name, value] of changed) apply(config, name, value);
}

/** Saves the settings that differ to KEY.md and puts them in force (refused as `keySettingsToSave` says). */
export async function saveKeySettings(config: Config, values: Record<string, string>): Promise<void> {
  await writeKeySettings(config, keySettingsToSave(config, values));
}
