"use client";
/** The fields the Model dialog and its profiles share: the input style, a key field that never shows a saved key, Test connection's findings. */
import type { ModelTestReply, ProfileCapabilities } from "@mini-openclaw/protocol";
import { Check, TriangleAlert, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";
import { CUSTOM_URL_EXAMPLE, MODEL_PRESETS, type ModelPreset, OPENAI_URL } from "./model-presets";

export const field = "h-9 w-full rounded-md border border-zinc-200 bg-white px-2.5 font-mono text-[13px] outline-none focus:border-klein";

/** A key field that never shows a saved key: empty until a new one is typed (`value` undefined: untouched). */
export function KeyField(props: { testId: string; saved: boolean; unsetHint: string; value: string | undefined; onChange: (key: string) => void; className?: string }) {
  const { t } = useTranslation();
  return (
    <label className={cn("block space-y-1", props.className)}>
      {t("model.apiKey")}{" "}
      <span className="font-normal text-zinc-500">({props.saved && props.value === undefined ? t("model.keySaved") : props.unsetHint})</span>
      <input data-testid={props.testId} type="password" autoComplete="off" className={field} value={props.value ?? ""} onChange={(e) => props.onChange(e.target.value)} />
    </label>
  );
}

const originOf = (baseUrl: string | null | undefined) => {
  try {
    return new URL(baseUrl?.trim() || "https://api.openai.com/v1").origin;
  } catch {
    return baseUrl ?? "";
  }
};

/** The host a saved key would newly go to, when the base URL moved there and no key was typed; else null. */
export function keyMovesTo(savedKey: boolean, typedKey: string | undefined, savedUrl: string | null | undefined, nextUrl: string): string | null {
  if (!savedKey || typedKey !== undefined) return null;
  const to = originOf(nextUrl);
  return originOf(savedUrl) === to ? null : to;
}

/** The user's yes to sending the saved key to a new host (the server sends it nowhere new without one). */
export function KeyHostConfirm(props: { host: string; checked: boolean; onChange: (checked: boolean) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <label className="flex items-start gap-1.5 rounded-md bg-amber-50 p-2 text-xs text-amber-900">
      <input type="checkbox" data-testid={props.testId} checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <span>{t("model.keyToNewHost", { host: props.host })}</span>
    </label>
  );
}

/** What Test connection found, one line per check. */
/** What a test found the model takes; null when its chat failed (then nothing was learnt). */
export function capabilitiesFound(test: ModelTestReply): ProfileCapabilities | null {
  const ok = (name: string) => test.checks.find((c) => c.name === name)?.ok;
  if (ok("chat") !== true) return null;
  return { tools: ok("tools") === true, vision: ok("vision") === true, reasoning: ok("reasoning") === true };
}

/** The checks Test connection runs, named in the reader's language (an unknown one by its own name). */
const CHECK_KEYS = { chat: "model.check.chat", tools: "model.check.tools", vision: "model.check.vision", reasoning: "model.check.reasoning", embeddings: "model.check.embeddings" } as const;

export function TestChecks({ test }: { test: ModelTestReply }) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-1 rounded-md bg-zinc-50 p-2.5 text-xs" data-testid="model-test-result">
      {test.checks.map((check) => (
        <li key={check.name} data-testid="model-check" data-check={check.name} data-ok={check.warning ? "warning" : check.ok ? "true" : "false"} className="flex gap-1.5">
          {check.warning ? (
            <TriangleAlert className="size-3.5 shrink-0 text-amber-600" aria-label={t("model.checkWarning")} />
          ) : check.ok ? (
            <Check className="size-3.5 shrink-0 text-emerald-600" />
          ) : (
            <X className="size-3.5 shrink-0 text-zinc-500" />
          )}
          <span className="font-semibold text-zinc-700">{Object.hasOwn(CHECK_KEYS, check.name) ? t(CHECK_KEYS[check.name as keyof typeof CHECK_KEYS]) : check.name}</span>
          <span className="text-zinc-500">{check.detail}</span>
        </li>
      ))}
    </ul>
  );
}


/** The base URL field's placeholder: what an empty field means (OpenAI), or, for a server of one's own, an example. */
export const baseUrlPlaceholder = (custom: boolean) => (custom ? CUSTOM_URL_EXAMPLE : OPENAI_URL);

/** A base URL that is none of the presets' (typed by hand): the Custom preset is the one marked. */
export const isCustomUrl = (baseUrl: string, customChosen: boolean) => customChosen || (baseUrl.trim() !== "" && !MODEL_PRESETS.some((p) => p.baseUrl === baseUrl.trim()));

/** The popular servers, then "Custom (OpenAI-compatible)": the one the base URL matches is marked. */
export function PresetButtons(props: { baseUrl: string; custom: boolean; onPreset: (preset: ModelPreset) => void; onCustom: () => void; testId: string }) {
  const { t } = useTranslation();
  const marked = (on: boolean) => ({ "aria-pressed": on, className: on ? "border-klein bg-klein-50 text-klein" : undefined });
  return (
    <div className="flex flex-wrap gap-1.5" data-testid={props.testId}>
      {MODEL_PRESETS.map((preset) => (
        <Button key={preset.name} type="button" variant="outline" size="sm" {...marked(!props.custom && props.baseUrl === preset.baseUrl)} onClick={() => props.onPreset(preset)}>
          {preset.name}
        </Button>
      ))}
      <Button type="button" variant="outline" size="sm" data-testid="preset-custom" {...marked(props.custom)} onClick={props.onCustom}>
        {t("model.presetCustom")}
      </Button>
    </div>
  );
}
