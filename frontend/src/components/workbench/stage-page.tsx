"use client";
import { X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Pane, PaneHeader } from "@/components/ui/pane";
import { useTranslation } from "react-i18next";

/** The views that need room: they open as pages in the Stage, their lists stay in the Sidebar. */
export const STAGE_PAGES = ["tasks", "knowledge", "settings", "proposals", "compare"] as const;
export type StagePageName = (typeof STAGE_PAGES)[number];

export const isStagePage = (view: string): view is StagePageName => (STAGE_PAGES as readonly string[]).includes(view);

/** A page shown, and where in it to go (`data-anchor` of an element in it); `nonce` repeats a go. */
export interface StagePageState {
  name: StagePageName;
  anchor?: string;
  nonce: number;
}

/**
 * A full page in the Stage's place (the conversation stays mounted behind it): a title, the way
 * back to the chat, and the view at a readable width. An anchor asked for is scrolled into view.
 */
export function StagePage({ page, title, onClose, children }: { page: StagePageState; title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!page.anchor) return;
    // After the view rendered what it loads (a list read from the server): look on the next frames.
    let tries = 0;
    let frame = 0;
    const find = () => {
      const target = body.current?.querySelector(`[data-anchor="${CSS.escape(page.anchor!)}"]`);
      if (target) target.scrollIntoView({ block: "start" });
      else if (tries++ < 60) frame = requestAnimationFrame(find);
    };
    find();
    return () => cancelAnimationFrame(frame);
  }, [page.anchor, page.nonce]);
  return (
    <Pane data-testid="stage-page" data-page={page.name} aria-label={title}>
      <PaneHeader title={title}>
        <button type="button" onClick={onClose} data-testid="stage-page-close" className="flex items-center gap-1 rounded-md px-2 py-1 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900">
          <X className="size-3.5" />
          {t("page.backToChat")}
        </button>
      </PaneHeader>
      <div ref={body} className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto w-full max-w-3xl px-4 py-4">{children}</div>
      </div>
    </Pane>
  );
}
