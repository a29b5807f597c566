"use client";
import { FileText } from "lucide-react";
import { useKnowledgeDocuments } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";
import { listedPath, STATE_STYLE } from "@/components/pages/knowledge-view";

/** The Sidebar's list while the Knowledge page shows: the documents, each opening in the Inspector. */
export function KnowledgeList({ onOpenFile }: { onOpenFile: (path: string) => void }) {
  const { t } = useTranslation();
  const documents = useKnowledgeDocuments().data ?? [];
  return (
    <div className="space-y-0.5" data-testid="knowledge-list">
      <h3 className="px-2 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("knowledge.documentsTitle")}</h3>
      {documents.length === 0 && <p className="px-2 text-xs text-zinc-500">{t("knowledge.empty")}</p>}
      {documents.map((doc) => (
        <button key={doc.path} type="button" onClick={() => onOpenFile(doc.path)} className="flex w-full items-center gap-1.5 rounded-md px-2 py-1 text-left text-xs hover:bg-zinc-50" data-testid="knowledge-list-item" data-tip={doc.reason}>
          <FileText className={cn("size-3.5 shrink-0", STATE_STYLE[doc.state])} />
          <span className="min-w-0 flex-1 truncate font-mono">{listedPath(doc.path)}</span>
        </button>
      ))}
    </div>
  );
}
