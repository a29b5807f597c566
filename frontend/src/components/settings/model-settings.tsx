"use client";
import type { ModelSettingsReply, ModelTestReply } from "@mini-openclaw/protocol";
import { Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { EMBEDDING_MODEL_EXAMPLE } from "./model-presets";
import { baseUrlPlaceholder, capabilitiesFound, field, isCustomUrl, KeyField, KeyHostConfirm, keyMovesTo, PresetButtons, TestChecks } from "./model-fields";
import { ProfilesSection } from "./profiles-section";
import { useTranslation } from "react-i18next";

/**
 * The chat model's settings: the profiles, then one form at a time (the default profile's, or the
 * profile being added or edited): base URL, model and key, with presets for the popular servers, and
 * optionally the knowledge base's embedding endpoint. "Test connection" tries them before anything
 * is saved; Save writes KEY.md and the next message uses them (a new embedder re-embeds the
 * documents). Saved keys are never shown: a key field stays empty unless a new key is typed.
 * Shown in the Model dialog and on the Settings page; read from the server when shown.
 */
export function ModelSettings({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<ModelSettingsReply | null>(null);
  const [baseUrl, setBaseUrl] = useState("");
  const [model, setModel] = useState("");
  /** A key typed in this form; undefined: untouched (the saved one stays). */
  const [apiKey, setApiKey] = useState<string | undefined>();
  const [embeddingModel, setEmbeddingModel] = useState("");
  const [embeddingUrl, setEmbeddingUrl] = useState("");
  const [embeddingKey, setEmbeddingKey] = useState<string | undefined>();
  const [test, setTest] = useState<ModelTestReply | null>(null);
  /** The settings the test was run with. */
  const [testedFor, setTestedFor] = useState<string | null>(null);
  const [busy, setBusy] = useState<"test" | "save" | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The user agreed to send the saved key to the host the base URL now names. */
  const [keyToNewHost, setKeyToNewHost] = useState(false);
  /** "Custom (OpenAI-compatible)" was picked: its field is empty until the user types the server's address. */
  const [customChosen, setCustomChosen] = useState(false);
  const custom = isCustomUrl(baseUrl, customChosen);
  const urlField = useRef<HTMLInputElement>(null);
  /** A profile is being added or edited: its form stands in the default's place. */
  const [profileForm, setProfileForm] = useState(false);

  useEffect(() => {
    api.model().then(
      (settings) => {
        setCurrent(settings);
        setBaseUrl(settings.base_url ?? "");
        setModel(settings.model);
        setEmbeddingModel(settings.embedding.model ?? "");
        setEmbeddingUrl(settings.embedding.base_url ?? "");
      },
      (err: Error) => setError(err.message),
    );
  }, []);

  const movesTo = keyMovesTo(current?.api_key_set ?? false, apiKey, current?.base_url, baseUrl);
  const settings = () => ({
    base_url: baseUrl.trim() || null,
    model: model.trim(),
    ...(apiKey !== undefined ? { api_key: apiKey } : {}),
    ...(movesTo && keyToNewHost ? { key_to_new_host: true } : {}),
    embedding: { model: embeddingModel.trim() || null, base_url: embeddingUrl.trim() || null, ...(embeddingKey !== undefined ? { api_key: embeddingKey } : {}) },
  });
  const run = async (what: "test" | "save") => {
    setBusy(what);
    setError(null);
    try {
      if (what === "test") {
        const tried = settings();
        setTest(await api.testModel(tried));
        setTestedFor(JSON.stringify(tried));
      } else {
        // What a test of these very settings found the model takes (images, tools, reasoning) is kept with them.
        const found = test && testedFor === JSON.stringify(settings()) ? capabilitiesFound(test) : null;
        await api.saveModel({ ...settings(), ...(found ? { capabilities: found } : {}) });
        onSaved();
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="model-settings">
      {/* The profiles first; under them one form at a time: the default profile's, or the profile being added or edited. */}
      <ProfilesSection onFormOpen={setProfileForm} />
      {!current && !error && <p className="border-t border-zinc-200 p-5 text-xs text-zinc-500">{t("common.loading")}</p>}
      {/* Shown once the saved settings are in its fields: its Save never flips from disabled to enabled under the reader. */}
      <form
        hidden={profileForm || (!current && !error)}
        data-testid="default-profile-form"
        className="space-y-3 border-t border-zinc-200 p-5"
        onSubmit={(event) => {
          event.preventDefault();
          void run("save");
        }}
      >
        <p className="text-xs text-zinc-500">{t("model.defaultProfileIntro")}</p>
        <PresetButtons
          testId="model-presets"
          baseUrl={baseUrl}
          custom={custom}
          onPreset={(preset) => {
            setCustomChosen(false);
            setBaseUrl(preset.baseUrl);
            // A preset without a model name (a local server: its own models) leaves no other provider's name behind.
            setModel(preset.model);
            setTest(null);
          }}
          onCustom={() => {
            setCustomChosen(true);
            setBaseUrl("");
            setModel("");
            setTest(null);
            urlField.current?.focus();
          }}
        />
        <label className="block space-y-1 text-xs font-medium text-zinc-600">
          {t("model.baseUrl")} <span className="font-normal text-zinc-500">{t("model.baseUrlHint")}</span>
          <input ref={urlField} data-testid="model-base-url" className={field} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder={baseUrlPlaceholder(custom)} />
        </label>
        <label className="block space-y-1 text-xs font-medium text-zinc-600">
          {t("tasks.form.model")}
          <input data-testid="model-name" className={field} value={model} onChange={(e) => setModel(e.target.value)} list="model-ids" required />
          <datalist id="model-ids">{test?.models?.map((id) => <option key={id} value={id} />)}</datalist>
        </label>
        <KeyField testId="model-api-key" className="text-xs font-medium text-zinc-600" saved={current?.api_key_set ?? false} unsetHint={t("model.keyLocalNone")} value={apiKey} onChange={setApiKey} />
        {movesTo && <KeyHostConfirm testId="model-key-to-new-host" host={movesTo} checked={keyToNewHost} onChange={setKeyToNewHost} />}
        <details className="rounded-md border border-zinc-200 px-2.5 py-1.5 text-xs text-zinc-600" open={Boolean(current?.embedding.model)}>
          <summary className="cursor-pointer font-medium">{t("model.embeddings")}</summary>
          <div className="mt-2 space-y-2">
            <label className="block space-y-1">
              {t("model.embeddingModel")}
              <input data-testid="embedding-model" className={field} value={embeddingModel} onChange={(e) => setEmbeddingModel(e.target.value)} placeholder={EMBEDDING_MODEL_EXAMPLE} />
            </label>
            <label className="block space-y-1">
              {t("model.baseUrl")} <span className="text-zinc-500">{t("model.sameAsChat")}</span>
              <input data-testid="embedding-base-url" className={field} value={embeddingUrl} onChange={(e) => setEmbeddingUrl(e.target.value)} />
            </label>
            <KeyField testId="embedding-api-key" saved={current?.embedding.api_key_set ?? false} unsetHint={t("model.sameAsChatKey")} value={embeddingKey} onChange={setEmbeddingKey} />
          </div>
        </details>
        {current && current.from_environment.length > 0 && (
          <p className="text-xs text-amber-700">{t("model.fromEnvironment", { names: current.from_environment.join(", ") })}</p>
        )}
        {test && <TestChecks test={test} />}
        {test?.models && test.models.length > 0 && !model.trim() && (
          <div className="space-y-1 text-xs text-zinc-600" data-testid="model-choices">
            <p>{t("model.pick")}</p>
            <div className="flex max-h-28 flex-wrap gap-1 overflow-y-auto">
              {test.models.map((id) => (
                <button key={id} type="button" data-testid="model-choice" className="rounded border border-zinc-200 px-1.5 py-0.5 font-mono hover:border-klein/50 hover:bg-klein-50" onClick={() => setModel(id)}>
                  {id}
                </button>
              ))}
            </div>
          </div>
        )}
        {error && (
          <p className="text-xs text-red-700" data-testid="model-error">
            {error}
          </p>
        )}
        <p className="text-[11px] text-zinc-500" data-testid="model-save-note">
          {t("model.saveNote", { file: current?.key_file ?? "KEY.md" })}
        </p>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" data-testid="model-test" disabled={busy !== null} onClick={() => void run("test")}>
            {busy === "test" && <Loader2 className="animate-spin" />}
            {t("model.test")}
          </Button>
          <Button type="submit" data-testid="model-save" disabled={busy !== null || !model.trim()}>
            {busy === "save" && <Loader2 className="animate-spin" />}
            {t("common.save")}
          </Button>
        </div>
      </form>
    </div>
  );
}
