"use client";
import type { Heartbeat } from "@mini-openclaw/protocol";
import { Check, ShieldAlert, Undo2 } from "lucide-react";
import dynamic from "next/dynamic";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { LoadingLine } from "@/components/ui/loading-line";
import { api } from "@/lib/api";

const MonacoDiff = dynamic(() => import("@/components/inspector/diff-editor"), { ssr: false, loading: () => <LoadingLine what="diff" /> });

/**
 * A standing-order change: the heartbeat's checklist as a tool rewrote it, beside the one the user
 * accepted. The heartbeat keeps running the accepted one until the user accepts this (or rejects it:
 * the file goes back).
 */
export function ChecklistChange({ heartbeat, act }: { heartbeat: Heartbeat; act: (what: () => Promise<unknown>) => void }) {
  const { t } = useTranslation();
  const change = heartbeat.checklist_change;
  if (!change) return null;
  return (
    <div className="mt-1.5 space-y-1 rounded-md border border-amber-300 bg-amber-50 p-1.5 text-amber-950" data-testid="checklist-change">
      <div className="flex items-start gap-1">
        <ShieldAlert className="mt-0.5 size-3.5 shrink-0" />
        <span>{t("tasks.checklistChanged", { file: heartbeat.checklist })}</span>
      </div>
      <div className="h-48 overflow-hidden rounded border border-amber-200 bg-white">
        <MonacoDiff path={heartbeat.checklist} before={change.accepted ?? ""} after={change.proposed} compact />
      </div>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" data-testid="checklist-accept" onClick={() => act(() => api.decideChecklist({ decision: "accept", sha256: change.sha256 }))}>
          <Check /> {t("tasks.checklistAccept")}
        </Button>
        <Button size="sm" variant="outline" data-testid="checklist-reject" onClick={() => act(() => api.decideChecklist({ decision: "reject", sha256: change.sha256 }))}>
          <Undo2 /> {t("tasks.checklistReject")}
        </Button>
      </div>
    </div>
  );
}
