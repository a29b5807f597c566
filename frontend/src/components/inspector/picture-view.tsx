"use client";
import { ExternalLink } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EditorFrame } from "./editor-frame";

/** A picture the Stage opened here (a browser step's screenshot), at its full size, read-only. */
export function PictureView({ src, title }: { src: string; title: string }) {
  const { t } = useTranslation();
  return (
    <EditorFrame
      path={title}
      error={null}
      actions={
        <a href={src} target="_blank" rel="noreferrer" className="text-zinc-500 hover:text-zinc-700" data-tip={t("attachments.openOriginal")} aria-label={t("attachments.openOriginalName", { name: title })}>
          <ExternalLink className="size-3.5" />
        </a>
      }
    >
      <div className="flex h-full items-start justify-center overflow-auto bg-zinc-50 p-4">
        <img src={src} alt={t("browser.screenshotOf", { title })} data-testid="inspector-picture" className="max-w-full rounded shadow-sm" />
      </div>
    </EditorFrame>
  );
}
