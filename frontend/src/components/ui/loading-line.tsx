"use client";
import { useTranslation } from "react-i18next";

/** "Loading the editor…": what a pane shows while its part loads (a component, so it can be passed before any render). */
export function LoadingLine({ what }: { what: "editor" | "diff" }) {
  const { t } = useTranslation();
  return <div className="p-4 text-sm text-zinc-500">{t(what === "editor" ? "loading.editor" : "loading.diff")}</div>;
}
