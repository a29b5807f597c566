"use client";
import type { KnowledgeDocument, KnowledgeSearchReply, KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { FileText, RefreshCw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { SearchBox } from "@/components/ui/search-box";
import { api } from "@/lib/api";
import { cn, plural } from "@/lib/utils";
import { WarningLine } from "./problem-card";

const STATE_STYLE: Record<KnowledgeDocument["state"], string> = {
  indexed: "text-emerald-700",
  failed: "text-red-700",
  skipped: "text-amber-700",
};

/** Seconds left at the rate so far, from the first progress seen. */
function estimate(start: { at: number; done: number } | null, done: number, total: number): string | null {
  if (!start || done <= start.done || total <= done) return null;
  const perDoc = (Date.now() - start.at) / (done - start.done);
  const seconds = Math.round((perDoc * (total - done)) / 1000);
  return seconds < 60 ? `about ${seconds} s left` : `about ${Math.round(seconds / 60)} min left`;
}

/**
 * The knowledge base as the agent sees it: the mode and why, indexing progress, every document with
 * its state (a failed one with its reason), Rebuild, and a query box showing the ranked passages with
 * their BM25, vector and fused scores. A passage opens its source at its line.
 */
export function KnowledgeView({ onOpenAt }: { onOpenAt: (path: string, line: number) => void }) {
  const [status, setStatus] = useState<KnowledgeStatusReply | null>(null);
  const [documents, setDocuments] = useState<KnowledgeDocument[]>([]);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<KnowledgeSearchReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const started = useRef<{ at: number; done: number } | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      Promise.all([api.knowledgeStatus(), api.knowledgeDocuments()]).then(
        ([s, d]) => {
          if (!live) return;
          if (s.indexing.running && !started.current) started.current = { at: Date.now(), done: s.indexing.done };
          if (!s.indexing.running) started.current = null;
          setStatus(s);
          setDocuments(d);
        },
        (err: Error) => live && setError(err.message),
      );
    void load();
    const timer = setInterval(load, 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  const search = () => {
    if (!query.trim()) return;
    api.knowledgeSearch(query.trim()).then(
      (reply) => (setResults(reply), setError(null)),
      (err: Error) => setError(err.message),
    );
  };

  if (!status) return <div className="p-2 text-xs text-zinc-500">{error ?? "Loading the knowledge base…"}</div>;
  const { indexing } = status;
  const left = estimate(started.current, indexing.done, indexing.total);
  return (
    <div className="space-y-3" data-testid="knowledge-view">
      <div className="space-y-1 px-1 text-[11px] text-zinc-500">
        <div className="flex items-center justify-between gap-2">
          <span data-testid="knowledge-summary">
            <b className="text-zinc-700">{status.documents.toLocaleString("en")}</b> {status.documents === 1 ? "document" : "documents"} · <b className="text-zinc-700">{status.chunks.toLocaleString("en")}</b> {status.chunks === 1 ? "chunk" : "chunks"} ·{" "}
            <span data-testid="knowledge-mode">{status.mode === "hybrid" ? "hybrid (BM25 + vectors)" : "BM25 only"}</span>
          </span>
          <Button variant="ghost" size="sm" disabled={indexing.running} onClick={() => void api.knowledgeRebuild()} data-testid="knowledge-rebuild" data-tip="Read and index every document again">
            <RefreshCw /> Rebuild
          </Button>
        </div>
        <div>Embeddings: {status.embedder.label}</div>
        <div data-testid="knowledge-watch">
          {status.watch.mode === "events"
            ? `Follows changes by folder events (${status.watch.folders} folders watched)`
            : status.watch.mode === "polling"
              ? `Looks for changes every 2 s`
              : "Not following changes"}
        </div>
        {status.watch.reason && <WarningLine text={`Folder events are off: ${status.watch.reason}`} />}
        {status.embedder.error && <WarningLine text={`Vector search is off: ${status.embedder.error}`} />}
        {status.truncated && <WarningLine text={status.truncated} />}
        {status.recovered && <WarningLine text={status.recovered} />}
      </div>
      {indexing.running && (
        <div className="space-y-1 px-1" data-testid="knowledge-progress">
          <div className="h-1.5 overflow-hidden rounded bg-zinc-100">
            <div className="h-full bg-klein transition-all" style={{ width: `${indexing.total ? Math.round((indexing.done / indexing.total) * 100) : 0}%` }} />
          </div>
          <div className="truncate text-[11px] text-zinc-500">
            Indexing {indexing.done} of {indexing.total}
            {left ? ` · ${left}` : ""}
            {indexing.current ? ` · ${indexing.current}` : ""}
          </div>
        </div>
      )}
      <SearchBox value={query} onChange={setQuery} onSubmit={search} placeholder="Try a query (Enter)" testId="knowledge-query" />
      {error && <div className="px-1 text-xs text-red-700">{error}</div>}
      {results && (
        <div className="space-y-1.5" data-testid="knowledge-results">
          <div className="px-1 text-[11px] text-zinc-500">
            {plural(results.results.length, "passage")} · {results.mode === "hybrid" ? "hybrid" : "BM25 only"}
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
                {/\.pdf$/i.test(hit.source) ? ` · page ${hit.line}` : /\.pptx$/i.test(hit.source) ? ` · slide ${hit.line}` : `:${hit.line}`}
              </div>
              <div className="tabular-nums text-[11px] text-zinc-500" data-testid="knowledge-scores">
                fused {hit.score.toFixed(3)} · bm25 {hit.bm25 === null ? "–" : hit.bm25.toFixed(2)} · vec {hit.vector === null ? "–" : hit.vector.toFixed(2)}
              </div>
              <div className="mt-0.5 line-clamp-3 text-[11px] text-zinc-500">{hit.text}</div>
            </button>
          ))}
        </div>
      )}
      <section className="space-y-0.5">
        <h3 className="px-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Documents</h3>
        {documents.length === 0 && <div className="px-1 text-xs text-zinc-500">Put Markdown, text or PDF files under knowledge/.</div>}
        {documents.map((doc) => (
          <button
            key={doc.path}
            type="button"
            data-testid="knowledge-document"
            data-state={doc.state}
            onClick={() => onOpenAt(doc.path, 1)}
            className="block w-full rounded-md px-2 py-1 text-left hover:bg-zinc-50"
            data-tip={doc.reason}
          >
            <div className="flex items-center gap-1.5 text-xs">
              <FileText className="size-3.5 shrink-0 text-zinc-500" />
              <span className="min-w-0 flex-1 truncate font-mono">{doc.path.replace(/^knowledge\//, "")}</span>
              <span className={cn("shrink-0 text-[11px]", STATE_STYLE[doc.state])}>{doc.state === "indexed" ? plural(doc.chunks, "chunk") : doc.state}</span>
            </div>
            {doc.reason && <div className="ml-5 text-[11px] text-red-700" data-testid="knowledge-reason">{doc.reason}</div>}
          </button>
        ))}
      </section>
    </div>
  );
}
