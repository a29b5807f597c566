import type { HealthReply } from "@mini-openclaw/protocol";
import { Cpu, ShieldAlert, ShieldCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { isLanguage, LANGUAGES, LOCALE_OF } from "@/i18n/language";
import { useLanguage } from "@/i18n/language-provider";
import { type ThemePreference, useTheme } from "@/lib/theme";

/** Light, Dark, or the system's (the default); remembered in this browser. */
function ThemeControl() {
  const { preference, setPreference } = useTheme();
  const { t } = useTranslation();
  return (
    <label className="flex items-center gap-1 text-[12px] text-zinc-600">
      {t("theme.label")}
      <select
        aria-label={t("theme.label")}
        data-testid="theme"
        value={preference}
        onChange={(e) => setPreference(e.target.value as ThemePreference)}
        className="rounded-md border border-zinc-200 bg-white px-1.5 py-0.5 text-[12px] text-zinc-800"
      >
        <option value="system">{t("theme.system")}</option>
        <option value="light">{t("theme.light")}</option>
        <option value="dark">{t("theme.dark")}</option>
      </select>
    </label>
  );
}

/** English or Chinese, each named in its own language; remembered in this browser, applied without a reload. */
function LanguageControl() {
  const { language, setLanguage } = useLanguage();
  const { t } = useTranslation();
  return (
    <select
      aria-label={t("language.label")}
      data-testid="language"
      value={language}
      onChange={(e) => isLanguage(e.target.value) && setLanguage(e.target.value)}
      className="rounded-md border border-zinc-200 bg-white px-1.5 py-0.5 text-[12px] text-zinc-800"
    >
      {Object.entries(LANGUAGES).map(([code, name]) => (
        <option key={code} value={code} lang={LOCALE_OF[code as keyof typeof LOCALE_OF]}>
          {name}
        </option>
      ))}
    </select>
  );
}

export function TopBar({ health, onModel }: { health: HealthReply | null; onModel: () => void }) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-20 flex h-12 shrink-0 items-center justify-between border-b border-zinc-200/70 bg-white/60 px-4 backdrop-blur-xl backdrop-saturate-150">
      <div className="flex items-center gap-2">
        <div className="grid size-6 place-items-center rounded-md bg-klein text-[11px] font-bold text-white">OC</div>
        <span className="text-[15px] font-semibold tracking-tight text-zinc-900">
          mini <span className="text-klein">OpenClaw</span>
        </span>
      </div>
      <div className="flex items-center gap-2">
        <LanguageControl />
        <ThemeControl />
      {health && (
        <div className="flex items-center gap-2" data-testid="status">
          <button type="button" data-testid="model-button" data-tip={t("topBar.setUpModelTip")} onClick={onModel}>
            <Badge variant={health.model.configured ? "muted" : "warning"} className="cursor-pointer hover:opacity-80">
              <Cpu />
              {health.model.configured ? health.model.model : t("topBar.setUpModel")}
            </Badge>
          </button>
          <Badge variant={health.sandbox.mode === "bubblewrap" ? "success" : "warning"} data-tip={health.sandbox.detail}>
            {health.sandbox.mode === "bubblewrap" ? <ShieldCheck /> : <ShieldAlert />}
            {health.sandbox.mode === "bubblewrap" ? t("topBar.sandboxed") : t("topBar.noSandbox")}
          </Badge>
        </div>
      )}
      </div>
    </header>
  );
}
