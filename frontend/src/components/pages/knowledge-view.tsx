"use client";
import type { KnowledgeDocument, KnowledgeSearchReply } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { FilePlus2, FileText, RefreshCw, Trash2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { SearchBox } from "@/components/ui/search-box";
import type { ToastAction } from "@/components/ui/toaster";
import { api } from "@/lib/api";
import { keys, useKnowledgeDocuments, useKnowledgeStatus } from "@/lib/server-state";
import { uploadKnowledgeFile } from "@/lib/upload";
import { useDropTarget } from "@/lib/use-drop-target";
import { cn } from "@/lib/utils";
import { WarningLine } from "@/components/ui/problem-card";
import { ServerStoreLines } from "./server-store-lines";
import { Trans, useTranslation } from "react-i18next";
import { formatNumber } from "@/i18n/format";
import { i18n } from "@/i18n/language";

export const STATE_STYLE: Record<KnowledgeDocument["state"], string> = {
  indexed: "text-emerald-700",
  failed: "text-red-700",
  skipped: "text-amber-700",
};

/** A document's path as listed: every one is under knowledge/, so without it. */
export const listedPath = (path: string) => path.replace(/^knowledge\//, "");

/** Seconds left at the rate so far, from the first progress seen. */
function estimate(start: { at: number; done: number } | null, done: number, total: number): string | null {
  if (!start || done <= start.done || total <= done) return null;
  const perDoc = (Date.now() - start.at) / (done - start.done);
  const seconds = Math.round((perDoc * (total - done)) / 1000);
  return seconds < 60 ? i18n.t("knowledge.leftSeconds", { count: seconds }) : i18n.t("knowledge.leftMinutes", { count: Math.round(seconds / 60) });
}

/**
 * The knowledge base as the agent sees it: the mode and why, indexing progress, every document with
 * its state (a failed one with its reason), Rebuild, and a query box showing the ranked passages with
 * their BM25, vector and fused scores. A passage opens its source at its line. Documents are added
 * by the picker or a drop (each sent with its progress, then indexed) and removed with an undo.
 */
export function KnowledgeView({
  onOpenAt,
  onToast,
}: {
  onOpenAt: (path: string, line: number) => void;
  onToast: (message: string, level?: "info" | "warning", action?: ToastAction) => void;
}) {
  // Progress, documents in and out: the server says when they change, and these read again then.
  const { t } = useTranslation();
  const statusQuery = useKnowledgeStatus();
  const status = statusQuery.data ?? null;
  const documents = useKnowledgeDocuments().data ?? [];
  const queryClient = useQueryClient();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<KnowledgeSearchReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const started = useRef<{ at: number; done: number } | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  /** The upload under way: which file of how many, and how much of it is sent. */
  const [adding, setAdding] = useState<{ name: string; index: number; count: number; sent: number } | null>(null);
  const reload = useRef(() => queryClient.invalidateQueries({ queryKey: keys.knowledge }));
  // The rate of the indexing under way, from the first progress seen, for the time left.
  useEffect(() => {
    if (!status) return;
    if (status.indexing.running && !started.current) started.current = { at: Date.now(), done: status.indexing.done };
    if (!status.indexing.running) started.current = null;
  }, [status]);
  useEffect(() => {
    if (statusQuery.error) setError(statusQuery.error.message);
  }, [statusQuery.error]);

  const add = useCallback(
    async (files: File[]) => {
      for (const [index, file] of files.entries()) {
        setAdding({ name: file.name, index, count: files.length, sent: 0 });
        try {
          const added = await uploadKnowledgeFile(file, file.name, (sent) => setAdding({ name: file.name, index, count: files.length, sent }));
          if (added.state === "failed") onToast(t("knowledge.toast.unreadable", { path: added.path, detail: added.reason }), "warning");
          else onToast(added.state === "indexed" ? t("knowledge.toast.added", { path: added.path, count: added.chunks }) : t("knowledge.toast.queued", { path: added.path }));
        } catch (err) {
          onToast(t("knowledge.toast.notAdded", { name: file.name, detail: (err as Error).message }), "warning");
        }
      }
      setAdding(null);
      await reload.current();
    },
    [onToast, t],
  );

  const remove = (path: string) =>
    void api.removeKnowledge(path).then(
      ({ trash }) => {
        void reload.current();
        onToast(t("knowledge.toast.removed", { path }), "info", {
          label: t("common.undo"),
          run: () => void api.restoreKnowledge(trash).then(() => reload.current(), (err: Error) => onToast(t("knowledge.toast.notRestored", { detail: err.message }), "warning")),
        });
      },
      (err: Error) => onToast(t("knowledge.toast.notRemoved", { path, detail: err.message }), "warning"),
    );

  const drop = useDropTarget((data) => {
    const files = [...data.files];
    if (files.length) void add(files);
  });

  const search = () => {
    if (!query.trim()) return;
    api.knowledgeSearch(query.trim()).then(
      (reply) => (setResults(reply), setError(null)),
      (err: Error) => setError(err.message),
    );
  };

  if (!status) return <div className="p-2 text-xs text-zinc-500">{error ?? t("knowledge.loading")}</div>;
  const { indexing } = status;
  const left = estimate(started.current, indexing.done, indexing.total);
  return (
    <div
      className={cn("min-h-full space-y-3 rounded-lg", drop.dragging && "bg-klein-50 ring-2 ring-klein-100 ring-inset")}
      data-testid="knowledge-view"
      {...drop.handlers}
    >
      <div className="space-y-1 px-1 text-[11px] text-zinc-500">
        <div className="flex items-center justify-between gap-2">
          <span data-testid="knowledge-summary">
            <Trans i18nKey="knowledge.documents" count={status.documents} components={{ b: <b className="text-zinc-700" /> }} /> ·{" "}
            <Trans i18nKey="knowledge.chunks" count={status.chunks} components={{ b: <b className="text-zinc-700" /> }} /> ·{" "}
            <span data-testid="knowledge-mode">{status.mode === "hybrid" ? t("knowledge.modeHybrid") : t("knowledge.modeBm25")}</span>
          </span>
          <span className="flex shrink-0 items-center">
            <Button variant="ghost" size="sm" disabled={adding !== null} onClick={() => picker.current?.click()} data-testid="knowledge-add" data-tip={t("knowledge.addTip")}>
              <FilePlus2 /> {t("knowledge.add")}
            </Button>
            <Button variant="ghost" size="sm" disabled={indexing.running || status.store.indexer?.self === false} onClick={() => void api.knowledgeRebuild()} data-testid="knowledge-rebuild" data-tip={t("knowledge.rebuildTip")}>
              <RefreshCw /> {t("knowledge.rebuild")}
            </Button>
          </span>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            accept=".md,.markdown,.txt,.csv,.tsv,.pdf,.docx,.pptx,.xlsx,.epub,.html,.htm"
            data-testid="knowledge-add-input"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = "";
              if (files.length) void add(files);
            }}
          />
        </div>
        {/* How the index works is there for who asks; the documents and the query keep the room. */}
        <details data-testid="knowledge-details">
          <summary className="cursor-pointer select-none">{t("knowledge.details")}</summary>
          <div>{t("knowledge.embeddings", { label: status.embedder.label })}</div>
          <div data-testid="knowledge-watch">
            {status.watch.mode === "events"
              ? t("knowledge.watchEvents", { count: status.watch.folders })
              : status.watch.mode === "polling"
                ? t("knowledge.watchPolling")
                : t("knowledge.watchOff")}
          </div>
        </details>
        {status.watch.reason && <WarningLine text={t("knowledge.eventsOff", { detail: status.watch.reason })} />}
        {status.store.kind === "postgres" && <ServerStoreLines store={status.store} />}
        {status.embedder.error && <WarningLine text={t("knowledge.vectorsOff", { detail: status.embedder.error })} />}
        {status.truncated && <WarningLine text={status.truncated} />}
        {status.recovered && <WarningLine text={status.recovered} />}
      </div>
      {adding && (
        <div className="space-y-1 px-1" data-testid="knowledge-adding">
          <div className="h-1.5 overflow-hidden rounded bg-zinc-100">
            <div className="h-full bg-emerald-600 transition-all" style={{ width: `${Math.round(adding.sent * 100)}%` }} />
          </div>
          <div className="truncate text-[11px] text-zinc-500">
            {adding.count > 1 ? t("knowledge.addingOf", { index: adding.index + 1, count: adding.count, name: adding.name }) : t("knowledge.adding", { name: adding.name })}
            {" · "}
            {adding.sent < 1 ? t("knowledge.sent", { percent: formatNumber(adding.sent, { style: "percent" }) }) : t("knowledge.indexingNow")}
          </div>
        </div>
      )}
      {indexing.running && (
        <div className="space-y-1 px-1" data-testid="knowledge-progress">
          <div className="h-1.5 overflow-hidden rounded bg-zinc-100">
            <div className="h-full bg-klein transition-all" style={{ width: `${indexing.total ? Math.round((indexing.done / indexing.total) * 100) : 0}%` }} />
          </div>
          <div className="truncate text-[11px] text-zinc-500">
            {t("knowledge.indexing", { done: formatNumber(indexing.done), count: indexing.total })}
            {left ? ` · ${left}` : ""}
            {indexing.current ? ` · ${indexing.current}` : ""}
          </div>
        </div>
      )}
      <SearchBox value={query} onChange={setQuery} onSubmit={search} placeholder={t("knowledge.query")} testId="knowledge-query" />
      {error && <div className="px-1 text-xs text-red-700">{error}</div>}
      {results && (
        <div className="space-y-1.5" data-testid="knowledge-results">
          <div className="px-1 text-[11px] text-zinc-500">
            {t("knowledge.passages", { count: results.results.length })} · {results.mode === "hybrid" ? t("knowledge.hybrid") : t("knowledge.modeBm25")}
            {results.note ? ` · ${results.note}` : ""}
          </div>
          {results.results.map((hit, i) => (
            <button
              key={`${hit.source}:${hit.chunk}`}
              type="button"
              data-testid="knowledge-hit"
              onClick={() => onOpenAt(hit.source, hit.line)}
              className="block w-full rounded-md border border-zinc-200 px-2 py-1.5 text-left hover:bg-zinc-50"
            >
              <div className="truncate font-mono text-[11px] text-zinc-700">
                {i + 1}. {hit.source}
                {/\.pdf$/i.test(hit.source) ? ` · ${t("knowledge.page", { page: hit.line })}` : /\.pptx$/i.test(hit.source) ? ` · ${t("knowledge.slide", { slide: hit.line })}` : `:${hit.line}`}
              </div>
              <div className="tabular-nums text-[11px] text-zinc-500" data-testid="knowledge-scores">
                {t("knowledge.scores", { fused: hit.score.toFixed(3), bm25: hit.bm25 === null ? "–" : hit.bm25.toFixed(2), vector: hit.vector === null ? "–" : hit.vector.toFixed(2) })}
              </div>
              <div className="mt-0.5 line-clamp-3 text-[11px] text-zinc-500">{hit.text}</div>
            </button>
          ))}
        </div>
      )}
      <section className="space-y-0.5">
        <h3 className="px-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("knowledge.documentsTitle")}</h3>
        {documents.length === 0 && <div className="px-1 text-xs text-zinc-500">{t("knowledge.empty")}</div>}
        {documents.map((doc) => (
          <div key={doc.path} className="group flex items-start rounded-md hover:bg-zinc-50" data-testid="knowledge-document" data-state={doc.state} data-path={doc.path}>
            <button type="button" onClick={() => onOpenAt(doc.path, 1)} className="block min-w-0 flex-1 px-2 py-1 text-left" data-tip={doc.reason}>
              <div className="flex items-center gap-1.5 text-xs">
                <FileText className="size-3.5 shrink-0 text-zinc-500" />
                <span className="min-w-0 flex-1 truncate font-mono">{listedPath(doc.path)}</span>
                <span className={cn("shrink-0 text-[11px]", STATE_STYLE[doc.state])}>{doc.state === "indexed" ? t("knowledge.chunkCount", { count: doc.chunks }) : t(`knowledge.state.${doc.state}`)}</span>
              </div>
              {doc.reason && <div className="ml-5 text-[11px] text-red-700" data-testid="knowledge-reason">{doc.reason}</div>}
            </button>
            {doc.state !== "skipped" && (
              <button
                type="button"
                aria-label={t("knowledge.remove", { path: doc.path })}
                data-tip={t("knowledge.removeTip")}
                data-testid="knowledge-remove"
                onClick={() => remove(doc.path)}
                className="mt-1 mr-1 rounded p-0.5 text-zinc-500 opacity-0 group-hover:opacity-100 hover:text-red-700 focus:opacity-100 pointer-coarse:opacity-100"
              >
                <Trash2 className="size-3.5" />
              </button>
            )}
          </div>
        ))}
      </section>
    </div>
  );
}
