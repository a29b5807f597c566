"use client";
import type { ModelProfile, ProfileCapabilities } from "@mini-openclaw/protocol";
import { i18n } from "@/i18n/language";
import { useState } from "react";
import { useModels } from "@/lib/server-state";
import { useTranslation } from "react-i18next";

/** What a profile can do, in words short enough for a menu line. */
function capabilities(profile: ModelProfile): string {
  const caps = (Object.entries(profile.capabilities ?? {}) as Array<[keyof ProfileCapabilities, boolean | undefined]>)
    .filter(([, on]) => on)
    .map(([name]) => i18n.t(`model.capability.${name}`));
  return caps.length > 0 ? ` · ${caps.join(", ")}` : "";
}

/**
 * The model profile by the composer: the session's (from its next turn on), or, with "this message
 * only", the next message's alone. Lists every profile with its model and what it can do.
 */
export function ModelPicker({ session, once, onChoose }: { session: string | null; once: string | null; onChoose: (name: string, once: boolean) => void }) {
  const { t } = useTranslation();
  const { data } = useModels();
  const [onlyNext, setOnlyNext] = useState(false);
  if (!data) return null;
  const current = once ?? session ?? data.default;
  return (
    <div className="flex items-center gap-2 text-[11.5px] text-zinc-500" data-testid="model-picker">
      <select
        aria-label={t("model.profile")}
        data-testid="model-select"
        className="max-w-[60%] truncate rounded border border-zinc-200 bg-white px-1.5 py-0.5 text-[11.5px] text-zinc-700 outline-none focus:border-klein"
        value={current}
        onChange={(e) => onChoose(e.target.value, onlyNext)}
      >
        {data.profiles.map((profile) => (
          <option key={profile.name} value={profile.name}>
            {profile.name} · {profile.configured ? profile.model : t("model.notSetUp")}
            {profile.configured ? capabilities(profile) : ""}
            {profile.name === data.default ? ` ${t("model.default")}` : ""}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-1" data-tip={t("model.onceTip")}>
        <input type="checkbox" data-testid="model-once" checked={onlyNext} onChange={(e) => setOnlyNext(e.target.checked)} />
        {t("model.once")}
      </label>
      {once && (
        <span data-testid="model-once-pending" className="text-amber-700">
          {t("model.nextMessage", { name: once })}
        </span>
      )}
    </div>
  );
}
