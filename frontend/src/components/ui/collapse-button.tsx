"use client";
import { PanelLeftClose, PanelRightClose } from "lucide-react";
import { useTranslation } from "react-i18next";

/** The button in a side pane's header that collapses it to its rail. */
export function CollapseButton({ side, onClick }: { side: "left" | "right"; onClick: () => void }) {
  const Icon = side === "left" ? PanelLeftClose : PanelRightClose;
  const { t } = useTranslation();
  return (
    <button type="button" aria-label={side === "left" ? t("panes.collapseSidebar") : t("panes.collapseInspector")} onClick={onClick} className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700">
      <Icon className="size-4" />
    </button>
  );
}
