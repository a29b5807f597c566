"use client";
import { Cpu, Globe, Webhook } from "lucide-react";
import { SETTINGS_SECTIONS, type SettingsSection } from "@/components/pages/settings-page";
import { useTranslation } from "react-i18next";

const ICONS: Record<SettingsSection, typeof Cpu> = { models: Cpu, web: Globe, hooks: Webhook };

/** The Sidebar's list while the Settings page shows: its sections. */
export function SettingsList({ onGo }: { onGo: (anchor: SettingsSection) => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-0.5" data-testid="settings-list">
      {SETTINGS_SECTIONS.map((section) => {
        const Icon = ICONS[section];
        return (
          <button key={section} type="button" onClick={() => onGo(section)} className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-xs text-zinc-700 hover:bg-zinc-50" data-testid={`settings-go-${section}`}>
            <Icon className="size-3.5 text-zinc-500" />
            {t(`settings.${section}`)}
          </button>
        );
      })}
    </div>
  );
}
