/**
 * The model profiles: `MODELS.json` at the top of the data root (outside every folder the sandbox
 * mounts) with their non-secret part, their keys in KEY.md or the environment. The profile `default`
 * is the `OPENAI_*` settings, so a workbench without the file works as it always did. The file is
 * read at start and watched; a broken file keeps the last good profiles in use, says why
 * (`/api/health`, `GET /api/models`), and is never rewritten until the user fixes it.
 */
import {
  DEFAULT_PROFILE,
  type HelperProfiles,
  type ModelProfile,
  type ModelsFile,
  type ModelsReply,
  modelsFileSchema,
  type ProfileCapabilities,
  type ProfileFileEntry,
  profileKeySetting,
  type ProfileUpdate,
} from "@mini-openclaw/protocol";
import { type Config, isModelConfigured } from "../config/config.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { UserError } from "../lib/user-error.js";
import { compatInForce } from "./provider-compat.js";
import { saveKeySettings } from "./key-settings.js";
import { MODELS_FILE } from "../settings/settings-files.js";
import { type Parsed, parseJsonFile, WatchedJsonFile } from "../settings/watched-json-file.js";

const MAX_BYTES = 256 * 1024;

export type HelperKind = keyof HelperProfiles;

/** What makes a parsed file unusable beyond its shape: names that point nowhere. */
function referenceProblem(file: ModelsFile): string | null {
  const profiles = file.profiles ?? {};
  const known = (name: string) => name === DEFAULT_PROFILE || Object.hasOwn(profiles, name);
  if (file.default && !known(file.default)) return `"default" names no profile: "${file.default}"`;
  for (const [name, entry] of Object.entries(profiles)) {
    if (name !== DEFAULT_PROFILE && !entry.model) return `profiles.${name}: "model" is required`;
    for (const fallback of entry.fallbacks ?? []) {
      if (fallback === name) return `profiles.${name}.fallbacks: a profile cannot be its own fallback`;
      if (!known(fallback)) return `profiles.${name}.fallbacks names no profile: "${fallback}"`;
    }
  }
  for (const [helper, name] of Object.entries(file.helpers ?? {})) if (name && !known(name)) return `helpers.${helper} names no profile: "${name}"`;
  return null;
}

/** The file's text as profiles, or why it cannot be used. */
export function parseModelsFile(text: string): Parsed<ModelsFile> {
  const keyHint = (issue: { code: string; keys?: string[] }) => (issue.code === "unrecognized_keys" && issue.keys?.some((k) => /key|token|secret/i.test(k)) ? " (keys go in KEY.md, never in this file)" : "");
  const parsed = parseJsonFile(MODELS_FILE, text, modelsFileSchema, keyHint);
  if ("problem" in parsed) return parsed;
  const problem = referenceProblem(parsed.value);
  return problem ? { problem: `${MODELS_FILE}: ${problem}` } : parsed;
}

export interface ModelProfilesDeps {
  config: Config;
  log: { warn(obj: object, msg: string): void };
  /** The profiles changed (the file, or through the API). */
  onChange: () => void;
  /** Watch MODELS.json (off in tests that call `reload()`). */
  watch?: boolean;
}

export class ModelProfiles {
  private readonly source: WatchedJsonFile<ModelsFile>;

  constructor(private readonly deps: ModelProfilesDeps) {
    this.source = new WatchedJsonFile<ModelsFile>({
      dataRoot: deps.config.dataRoot,
      name: MODELS_FILE,
      maxBytes: MAX_BYTES,
      parse: parseModelsFile,
      missing: {},
      lastGood: "the last good profiles stay in use",
      log: deps.log,
      onChange: deps.onChange,
      watch: deps.watch,
    });
  }

  start(): Promise<void> {
    return this.source.start();
  }

  close(): void {
    this.source.close();
  }

  /** Reads the file again: a good file replaces the profiles, a broken one leaves the last good ones in use. */
  reload(): Promise<void> {
    return this.source.reload();
  }

  private get file(): ModelsFile {
    return this.source.value;
  }

  /** Why the file is not in use, or null. */
  get problem(): string | null {
    return this.source.problem;
  }

  defaultName(): string {
    return this.file.default ?? DEFAULT_PROFILE;
  }

  names(): string[] {
    return [DEFAULT_PROFILE, ...Object.keys(this.file.profiles ?? {}).filter((name) => name !== DEFAULT_PROFILE)];
  }

  has(name: string): boolean {
    return name === DEFAULT_PROFILE || Object.hasOwn(this.file.profiles ?? {}, name);
  }

  /** The profile a helper uses (null: the session's). */
  helper(kind: HelperKind): string | null {
    const name = this.file.helpers?.[kind] ?? null;
    return name && this.has(name) ? name : null;
  }

  private entry(name: string): ProfileFileEntry {
    return (this.file.profiles && Object.hasOwn(this.file.profiles, name) ? this.file.profiles[name] : undefined) ?? {};
  }

  private keyOf(name: string): string | null {
    const { config } = this.deps;
    return name === DEFAULT_PROFILE ? config.model.apiKey : (config.profileKeys[profileKeySetting(name)] ?? null);
  }

  /** The profile ready to call, or null when there is none of that name. */
  resolve(name: string): ResolvedProfile | null {
    if (!this.has(name)) return null;
    const { config } = this.deps;
    const entry = this.entry(name);
    const endpoint = name === DEFAULT_PROFILE ? { baseUrl: config.model.baseUrl, model: config.model.model } : { baseUrl: entry.base_url?.trim() || null, model: entry.model ?? "" };
    return {
      name,
      model: { ...config.model, ...endpoint, apiKey: this.keyOf(name) },
      params: {
        ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
        ...(entry.max_output_tokens !== undefined ? { maxOutputTokens: entry.max_output_tokens } : {}),
        ...(entry.reasoning_effort !== undefined ? { reasoningEffort: entry.reasoning_effort } : {}),
        ...(entry.context_window !== undefined ? { contextWindow: entry.context_window } : {}),
      },
      prices: entry.prices ?? null,
      capabilities: entry.capabilities ?? {},
      compat: compatInForce(endpoint.baseUrl, entry.compat),
      fallbacks: entry.fallbacks ?? [],
    };
  }

  /** The profile and then its fallbacks, in order, each once: what a turn on `name` may go through. */
  chain(name: string): ResolvedProfile[] {
    const first = this.resolve(name);
    if (!first) return [];
    const seen = new Set([name]);
    const chain = [first];
    for (const fallback of first.fallbacks) {
      if (seen.has(fallback)) continue;
      seen.add(fallback);
      const profile = this.resolve(fallback);
      if (profile) chain.push(profile);
    }
    return chain;
  }

  private shown(name: string): ModelProfile {
    const profile = this.resolve(name)!;
    const { base_url: _baseUrl, model: _model, fallbacks: _fallbacks, ...rest } = this.entry(name);
    return {
      ...rest,
      name,
      base_url: profile.model.baseUrl,
      model: profile.model.model,
      api_key_set: profile.model.apiKey !== null,
      configured: isModelConfigured(profile.model),
      key_setting: profileKeySetting(name),
      fallbacks: profile.fallbacks,
      compat_in_force: profile.compat,
    };
  }

  reply(): ModelsReply {
    return {
      default: this.defaultName(),
      profiles: this.names().map((name) => this.shown(name)),
      helpers: this.file.helpers ?? {},
      file: MODELS_FILE,
      problem: this.problem,
    };
  }

  /**
   * Runs `change` on the file as it is, then writes it (refused while the file is broken: it is the
   * user's to fix). KEY.md's settings among `keys` that differ are saved first, in force at once.
   */
  private async write(change: (file: ModelsFile) => ModelsFile, keys: Record<string, string> = {}): Promise<void> {
    await this.source.write(async (file) => {
      const next = change(file);
      const problem = referenceProblem(next);
      if (problem) throw new UserError("invalid_request", problem);
      await saveKeySettings(this.deps.config, keys);
      return next;
    });
  }

  /**
   * Creates or replaces a profile. For `default`, the endpoint and model are the `OPENAI_*` settings
   * and are saved to KEY.md (as the Model dialog always did); the rest goes to the file.
   */
  async save(name: string, update: ProfileUpdate): Promise<void> {
    const { api_key: apiKey, key_to_new_host: _confirmed, ...fields } = update;
    const keys: Record<string, string> = apiKey === undefined ? {} : { [profileKeySetting(name)]: apiKey.trim() };
    if (name === DEFAULT_PROFILE) {
      const { base_url: baseUrl, model, ...rest } = fields;
      const endpoint = { OPENAI_BASE_URL: baseUrl?.trim() ?? "", OPENAI_MODEL: model.trim() };
      return this.write((file) => ({ ...file, profiles: { ...file.profiles, [name]: rest } }), { ...endpoint, ...keys });
    }
    return this.write((file) => ({ ...file, profiles: { ...file.profiles, [name]: { ...fields, base_url: fields.base_url?.trim() || null } } }), keys);
  }

  /** Sets what a profile's model takes (what Test connection found), leaving the rest of it as it is. */
  async setCapabilities(name: string, capabilities: ProfileCapabilities): Promise<void> {
    return this.write((file) => ({ ...file, profiles: { ...file.profiles, [name]: { ...file.profiles?.[name], capabilities } } }));
  }

  /** Deletes a profile and every mention of it (fallbacks, helpers, the default), and its key. */
  async remove(name: string): Promise<void> {
    if (name === DEFAULT_PROFILE) throw new UserError("invalid_request", `The profile "${DEFAULT_PROFILE}" is the OPENAI_* settings and cannot be deleted; set another profile as the default instead.`);
    if (!this.has(name)) throw new UserError("not_found", `No such model profile: ${name}`);
    // Its key goes too (one the environment sets is the environment's).
    const setting = profileKeySetting(name);
    const keys = this.deps.config.profileKeysFromEnvironment.includes(setting) ? {} : { [setting]: "" };
    return this.write((file) => {
      const { [name]: _gone, ...profiles } = file.profiles ?? {};
      for (const entry of Object.values(profiles)) if (entry.fallbacks) entry.fallbacks = entry.fallbacks.filter((f) => f !== name);
      const helpers = Object.fromEntries(Object.entries(file.helpers ?? {}).filter(([, value]) => value !== name));
      const { default: current, ...rest } = file;
      return { ...rest, ...(current && current !== name ? { default: current } : {}), profiles, ...(file.helpers ? { helpers } : {}) };
    }, keys);
  }

  /** Sets the default profile and the helpers' profiles. */
  async settings(update: { default?: string; helpers?: HelperProfiles }): Promise<void> {
    return this.write((file) => ({
      ...file,
      ...(update.default !== undefined ? { default: update.default } : {}),
      ...(update.helpers !== undefined ? { helpers: { ...file.helpers, ...update.helpers } } : {}),
    }));
  }
}
