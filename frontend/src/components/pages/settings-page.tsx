"use client";
import type { ReactNode } from "react";
import { HooksView } from "./hooks-view";
import { ModelSettings } from "@/components/settings/model-settings";
import { WebSearchSection } from "@/components/settings/web-search-section";
import { useTranslation } from "react-i18next";

/** The Settings page's sections, in order; each is an anchor the Sidebar's list goes to. */
export const SETTINGS_SECTIONS = ["models", "web", "hooks"] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

function Section({ anchor, title, children }: { anchor: SettingsSection; title: string; children: ReactNode }) {
  return (
    <section data-anchor={anchor} data-testid={`settings-${anchor}`} className="scroll-mt-4 overflow-hidden rounded-xl border border-zinc-200">
      <h2 className="border-b border-zinc-200 bg-zinc-50/70 px-5 py-2.5 text-[13px] font-semibold text-zinc-800">{title}</h2>
      {children}
    </section>
  );
}

/** What the workbench is set to, with room: the models, web search and the browser, the hooks. */
export function SettingsPage({ sessionId, onOpenFile, onModelSaved }: { sessionId: string | null; onOpenFile: (path: string) => void; onModelSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" data-testid="settings-page">
      <Section anchor="models" title={t("settings.models")}>
        <ModelSettings onSaved={onModelSaved} />
      </Section>
      <Section anchor="web" title={t("settings.web")}>
        <WebSearchSection />
      </Section>
      <Section anchor="hooks" title={t("settings.hooks")}>
        <div className="p-3">
          <HooksView sessionId={sessionId} onOpenFile={onOpenFile} />
        </div>
      </Section>
    </div>
  );
}
