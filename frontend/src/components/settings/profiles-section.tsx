"use client";
import type { ModelProfile, ModelTestReply, ProfileCapabilities, ProfileUpdate } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { Loader2, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { keys, useModels } from "@/lib/server-state";
import { baseUrlPlaceholder, capabilitiesFound, field, isCustomUrl, KeyField, KeyHostConfirm, keyMovesTo, PresetButtons, TestChecks } from "./model-fields";
import { CAPABILITIES, PROFILE_NAME_EXAMPLE } from "./model-presets";
import { formatCost } from "@/i18n/format";
import { useTranslation } from "react-i18next";

interface Draft {
  name: string;
  baseUrl: string;
  model: string;
  /** Undefined: untouched (the saved key stays). */
  apiKey: string | undefined;
  priceIn: string;
  priceOut: string;
  fallbacks: string;
  /** What the model can do: filled in by Test connection, editable. */
  caps: Required<ProfileCapabilities>;
  /** Editing a saved profile (its name is fixed). */
  saved: boolean;
  /** The user agreed to send the saved key to the host the base URL now names. */
  keyToNewHost: boolean;
  /** "Custom (OpenAI-compatible)" was picked. */
  custom: boolean;
}

const emptyDraft = (): Draft => ({ name: "", baseUrl: "", model: "", apiKey: undefined, priceIn: "", priceOut: "", fallbacks: "", caps: { tools: false, vision: false, reasoning: false }, saved: false, keyToNewHost: false, custom: false });

const draftOf = (p: ModelProfile): Draft => ({
  name: p.name,
  baseUrl: p.base_url ?? "",
  model: p.model,
  apiKey: undefined,
  priceIn: p.prices ? String(p.prices.input) : "",
  priceOut: p.prices ? String(p.prices.output) : "",
  fallbacks: p.fallbacks.join(", "),
  caps: { tools: p.capabilities?.tools ?? false, vision: p.capabilities?.vision ?? false, reasoning: p.capabilities?.reasoning ?? false },
  saved: true,
  keyToNewHost: false,
  custom: false,
});

/** The draft as the API takes it; what the form does not show (parameters, other capabilities) is kept from the saved profile. */
function updateOf(draft: Draft, saved: ModelProfile | undefined): ProfileUpdate {
  const { name: _n, base_url: _b, model: _m, api_key_set: _k, configured: _o, key_setting: _s, fallbacks: _f, prices: _p, compat_in_force: _c, capabilities, ...rest } = saved ?? ({} as Partial<ModelProfile>);
  const priced = draft.priceIn.trim() !== "" && draft.priceOut.trim() !== "";
  return {
    ...rest,
    base_url: draft.baseUrl.trim() || null,
    model: draft.model.trim(),
    ...(draft.apiKey !== undefined ? { api_key: draft.apiKey } : {}),
    ...(draft.keyToNewHost && keyMovesTo(saved?.api_key_set ?? false, draft.apiKey, saved?.base_url, draft.baseUrl) ? { key_to_new_host: true } : {}),
    ...(priced ? { prices: { input: Number(draft.priceIn), output: Number(draft.priceOut) } } : {}),
    fallbacks: draft.fallbacks.split(",").map((f) => f.trim()).filter(Boolean),
    capabilities: { ...capabilities, ...draft.caps },
  };
}

/**
 * Every model profile (`MODELS.json`; keys in KEY.md): add one, edit, try it, make it the default,
 * delete it. A session picks its profile by the composer; helpers' profiles are set in MODELS.json.
 */
export function ProfilesSection({ onFormOpen }: { /** Told when this section's form opens or closes (the dialog shows one form at a time). */ onFormOpen: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { data } = useModels();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [test, setTest] = useState<ModelTestReply | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const formOpen = draft !== null;
  useEffect(() => onFormOpen(formOpen), [formOpen, onFormOpen]);
  const saved = data?.profiles.find((p) => p.name === draft?.name);

  const act = async (what: string, work: () => Promise<unknown>) => {
    setBusy(what);
    setError(null);
    try {
      await work();
      await client.invalidateQueries({ queryKey: keys.models });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="space-y-2 border-t border-zinc-200 p-5 pt-3" data-testid="profiles">
      <div className="flex items-center justify-between">
        <h3 className="text-[13px] font-semibold text-zinc-800">{t("model.profiles")}</h3>
        <Button
          type="button"
          variant="outline"
          size="sm"
          data-testid="profile-add"
          onClick={() => {
            setDraft(emptyDraft());
            setTest(null);
          }}
        >
          <Plus /> {t("model.addProfile")}
        </Button>
      </div>
      {data?.problem && <p className="text-xs text-amber-700" data-testid="profiles-problem">{data.problem}</p>}
      <ul className="space-y-1 text-xs">
        {data?.profiles.map((profile) => (
          <li key={profile.name} data-testid="profile-row" data-profile={profile.name} className="flex items-center gap-2 rounded-md border border-zinc-200 px-2 py-1">
            <span className="font-mono font-semibold text-zinc-800">{profile.name}</span>
            <span className="min-w-0 flex-1 truncate text-zinc-500" data-testid="profile-summary">
              {profile.configured ? profile.model : <span className="text-amber-700">{t("model.notSetUp")}</span>}
              {profile.base_url ? ` ${t("model.at", { url: profile.base_url })}` : ""}
              {profile.api_key_set ? ` · ${t("model.keySet")}` : ""}
              {profile.prices ? ` · ${t("model.prices", { input: formatCost(profile.prices.input), output: formatCost(profile.prices.output) })}` : ""}
            </span>
            {profile.name === data.default ? (
              <span className="text-[10.5px] font-medium uppercase text-klein">{t("model.defaultBadge")}</span>
            ) : (
              <Button type="button" variant="ghost" size="sm" data-testid="profile-default" disabled={busy !== null} onClick={() => void act("default", () => api.setDefaultProfile(profile.name))}>
                {t("model.makeDefault")}
              </Button>
            )}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              data-testid="profile-edit"
              onClick={() => {
                // The profile "default" is the dialog's own form (KEY.md's settings): closing this one shows it.
                setDraft(profile.name === "default" ? null : draftOf(profile));
                setTest(null);
              }}
            >
              {t("common.edit")}
            </Button>
            {profile.name !== "default" && (
              <Button type="button" variant="ghost" size="sm" data-testid="profile-delete" disabled={busy !== null} onClick={() => void act("delete", () => api.deleteProfile(profile.name))}>
                {t("common.delete")}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {draft && (
        <div className="space-y-2 rounded-md border border-zinc-200 p-2.5 text-xs font-medium text-zinc-600" data-testid="profile-form">
          <PresetButtons
            testId="profile-presets"
            baseUrl={draft.baseUrl}
            custom={isCustomUrl(draft.baseUrl, draft.custom)}
            onPreset={(preset) => set({ baseUrl: preset.baseUrl, model: preset.model, custom: false })}
            onCustom={() => set({ baseUrl: "", model: "", custom: true })}
          />
          <label className="block space-y-1">
            {t("tasks.form.name")} <span className="font-normal text-zinc-500">{t("model.nameHint")}</span>
            <input data-testid="profile-name" className={field} value={draft.name} disabled={draft.saved} onChange={(e) => set({ name: e.target.value })} placeholder={PROFILE_NAME_EXAMPLE} />
          </label>
          <label className="block space-y-1">
            {t("model.baseUrl")} <span className="font-normal text-zinc-500">{t("model.baseUrlHint")}</span>
            <input data-testid="profile-base-url" className={field} value={draft.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} placeholder={baseUrlPlaceholder(isCustomUrl(draft.baseUrl, draft.custom))} />
          </label>
          <label className="block space-y-1">
            {t("tasks.form.model")}
            <input data-testid="profile-model" className={field} value={draft.model} onChange={(e) => set({ model: e.target.value })} list="profile-model-ids" />
            <datalist id="profile-model-ids">{test?.models?.map((id) => <option key={id} value={id} />)}</datalist>
          </label>
          <KeyField testId="profile-api-key" saved={saved?.api_key_set ?? false} unsetHint={t("model.keySavedAs", { setting: saved?.key_setting ?? "MODEL_<NAME>_API_KEY" })} value={draft.apiKey} onChange={(apiKey) => set({ apiKey })} />
          {(() => {
            const host = keyMovesTo(saved?.api_key_set ?? false, draft.apiKey, saved?.base_url, draft.baseUrl);
            return host && <KeyHostConfirm testId="profile-key-to-new-host" host={host} checked={draft.keyToNewHost} onChange={(keyToNewHost) => set({ keyToNewHost })} />;
          })()}
          <div className="flex gap-2">
            <label className="block flex-1 space-y-1">
              {t("model.priceIn")}
              <input data-testid="profile-price-in" inputMode="decimal" className={field} value={draft.priceIn} onChange={(e) => set({ priceIn: e.target.value })} />
            </label>
            <label className="block flex-1 space-y-1">
              {t("model.priceOut")}
              <input data-testid="profile-price-out" inputMode="decimal" className={field} value={draft.priceOut} onChange={(e) => set({ priceOut: e.target.value })} />
            </label>
          </div>
          <label className="block space-y-1">
            {t("model.fallbacks")} <span className="font-normal text-zinc-500">{t("model.fallbacksHint")}</span>
            <input data-testid="profile-fallbacks" className={field} value={draft.fallbacks} onChange={(e) => set({ fallbacks: e.target.value })} />
          </label>
          <div className="flex gap-3 font-normal" data-testid="profile-capabilities">
            {CAPABILITIES.map((cap) => (
              <label key={cap} className="flex items-center gap-1">
                <input type="checkbox" data-testid={`profile-cap-${cap}`} checked={draft.caps[cap]} onChange={(e) => set({ caps: { ...draft.caps, [cap]: e.target.checked } })} /> {t(`model.capability.${cap}`)}
              </label>
            ))}
          </div>
          {test && <TestChecks test={test} />}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" size="sm" onClick={() => setDraft(null)}>
              {t("common.cancel")}
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              data-testid="profile-test"
              disabled={busy !== null || !draft.model.trim()}
              onClick={() =>
                void act("test", async () => {
                  const found = await api.testProfile({ ...updateOf(draft, saved), ...(draft.saved ? { name: draft.name } : {}) });
                  setTest(found);
                  // What the test found fills the capabilities (still editable); a check that could not run changes nothing.
                  const caps = capabilitiesFound(found);
                  if (caps) set({ caps: { tools: caps.tools === true, vision: caps.vision === true, reasoning: caps.reasoning === true } });
                })
              }
            >
              {busy === "test" && <Loader2 className="animate-spin" />}
              {t("model.test")}
            </Button>
            <Button
              type="button"
              size="sm"
              data-testid="profile-save"
              disabled={busy !== null || !draft.model.trim() || !draft.name.trim()}
              onClick={() =>
                void act("save", async () => {
                  await api.saveProfile(draft.name.trim(), updateOf(draft, saved));
                  setDraft(null);
                })
              }
            >
              {busy === "save" && <Loader2 className="animate-spin" />}
              {t("model.saveProfile")}
            </Button>
          </div>
        </div>
      )}
      {error && (
        <p className="text-xs text-red-700" data-testid="profile-error">
          {error}
        </p>
      )}
    </section>
  );
}
