"use client";
import type { ProposalHunkView, ProposalSource, ProposalView } from "@mini-openclaw/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, FileDiff, Pencil, X } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LoadingLine } from "@/components/ui/loading-line";
import { WarningLine } from "@/components/ui/problem-card";
import { formatDateTime } from "@/i18n/format";
import { api } from "@/lib/api";
import { keys } from "@/lib/server-state";
import { useTranslation } from "react-i18next";

const MonacoDiff = dynamic(() => import("@/components/inspector/diff-editor"), { ssr: false, loading: () => <LoadingLine what="diff" /> });

const PAGE = 20;

export interface ProposalLinks {
  /** A source turn: its session opened at that turn. */
  onOpenTurn: (sessionId: string, turn: number) => void;
  /** A source log line, or the proposal's file, in the Inspector. */
  onOpenFile: (path: string) => void;
}

function SourceLinks({ sources, links }: { sources: ProposalSource[]; links: ProposalLinks }) {
  const { t } = useTranslation();
  if (sources.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-1 text-[11px] text-zinc-500">
      {t("proposals.sources")}
      {sources.map((source, i) =>
        "session_id" in source ? (
          <button key={i} type="button" className="text-klein hover:underline" data-testid="proposal-source-turn" onClick={() => links.onOpenTurn(source.session_id, source.turn)}>
            {t("proposals.sourceTurn", { turn: source.turn })}
          </button>
        ) : (
          <button key={i} type="button" className="text-klein hover:underline" data-testid="proposal-source-log" onClick={() => links.onOpenFile(source.log)}>
            {t("proposals.sourceLog", { log: source.log, line: source.line })}
          </button>
        ),
      )}
    </div>
  );
}

const OP_BADGE = { add: "success", change: "default", remove: "danger", create: "success" } as const;

/** One edit: what it does and why, where it came from, what stops it, and the decision (edit first, if the user wants). */
function HunkRow({ hunk, index, refused, links, decide }: { hunk: ProposalHunkView; index: number; refused: boolean; links: ProposalLinks; decide: (body: { hunk: number; decision: "accept" | "reject"; text?: string }) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (body: { hunk: number; decision: "accept" | "reject"; text?: string }) => {
    setBusy(true);
    void decide(body).finally(() => setBusy(false));
  };
  const pending = hunk.state === "pending" && !refused;
  return (
    <li className="space-y-1 rounded-md border border-zinc-200 bg-white p-2" data-testid="proposal-hunk" data-op={hunk.op} data-state={hunk.state}>
      <div className="flex items-center gap-1.5">
        <Badge variant={OP_BADGE[hunk.op]}>{t(`proposals.op.${hunk.op}`)}</Badge>
        {hunk.state !== "pending" && <Badge variant={hunk.state === "accepted" ? "success" : "muted"}>{t(hunk.edited ? "proposals.state.edited" : `proposals.state.${hunk.state}`)}</Badge>}
        {hunk.reason && <span className="min-w-0 flex-1 truncate text-[11.5px] text-zinc-600" data-tip={hunk.reason}>{hunk.reason}</span>}
      </div>
      {hunk.old !== undefined && (hunk.op === "change" || hunk.op === "remove") && (
        <div className="text-[11px] text-zinc-500">
          {t("proposals.was")}
          <pre className="mt-0.5 max-h-32 overflow-auto whitespace-pre-wrap rounded bg-red-50/60 px-1.5 py-1 font-mono text-[11.5px] text-zinc-700 line-through decoration-red-300">{hunk.old}</pre>
        </div>
      )}
      {draft !== null ? (
        <textarea
          data-testid="proposal-edit-text"
          aria-label={t("proposals.edit")}
          className="w-full rounded border border-klein-100 px-1.5 py-1 font-mono text-[12px] outline-none focus:ring-2 focus:ring-klein-100"
          rows={Math.min(12, Math.max(2, draft.split("\n").length))}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      ) : (
        hunk.text !== undefined && hunk.op !== "remove" && <pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-emerald-50/60 px-1.5 py-1 font-mono text-[11.5px] text-zinc-800">{hunk.text}</pre>
      )}
      <SourceLinks sources={hunk.sources} links={links} />
      {pending && hunk.stale && <WarningLine text={t("proposals.stale", { reason: hunk.stale })} testId="proposal-stale" />}
      {pending && hunk.secret && <WarningLine text={t("proposals.secret", { reason: hunk.secret })} testId="proposal-secret" />}
      {pending && (
        <div className="flex flex-wrap gap-1">
          {draft === null ? (
            <>
              <Button size="sm" onClick={() => run({ hunk: index, decision: "accept" })} disabled={busy || !!hunk.stale || !!hunk.secret} data-testid="proposal-accept">
                <Check /> {t("proposals.accept")}
              </Button>
              {hunk.op !== "remove" && (
                <Button size="sm" variant="outline" onClick={() => setDraft(hunk.text ?? "")} disabled={busy || !!hunk.stale} data-testid="proposal-edit">
                  <Pencil /> {t("proposals.edit")}
                </Button>
              )}
            </>
          ) : (
            <>
              <Button size="sm" onClick={() => run({ hunk: index, decision: "accept", text: draft })} disabled={busy || draft.trim() === ""} data-testid="proposal-accept-edited">
                <Check /> {t("proposals.acceptEdited")}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>
                {t("common.cancel")}
              </Button>
            </>
          )}
          <Button size="sm" variant="ghost" onClick={() => run({ hunk: index, decision: "reject" })} disabled={busy} data-testid="proposal-reject">
            <X /> {t("proposals.reject")}
          </Button>
        </div>
      )}
    </li>
  );
}

/** The proposal's file as it is now beside what the pending hunks would make of it. */
function ProposalDiff({ id, target }: { id: string; target: string }) {
  const { data, error } = useQuery({ queryKey: [...keys.proposals, "detail", id], queryFn: () => api.proposal(id) });
  if (error) return <p className="text-xs text-red-700">{error.message}</p>;
  if (!data) return <LoadingLine what="diff" />;
  return (
    <div className="h-64 overflow-hidden rounded border border-zinc-200" data-testid="proposal-diff">
      <MonacoDiff path={target} before={data.current ?? ""} after={data.proposed} />
    </div>
  );
}

function ProposalCard({ proposal, links }: { proposal: ProposalView; links: ProposalLinks }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [diff, setDiff] = useState(proposal.pending > 0 && !proposal.refused);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decide = (body: { hunk?: number; decision: "accept" | "reject"; text?: string }) => {
    setError(null);
    setDone(null);
    return api.decideProposal(proposal.id, body).then(
      (reply) => {
        if (reply.change) setDone(t("proposals.applied", { path: proposal.target }));
        void queryClient.invalidateQueries({ queryKey: keys.proposals });
      },
      (err: Error) => setError(err.message),
    );
  };
  const refused = proposal.refused !== undefined;
  return (
    <section className="space-y-1.5 rounded-lg border border-zinc-200 bg-zinc-50/60 px-2.5 py-2 text-xs" data-testid="proposal-card" data-target={proposal.target} data-anchor={proposal.id}>
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant="muted">{t(`proposals.kind.${proposal.kind}`)}</Badge>
        <button type="button" className="font-mono text-[12.5px] font-semibold text-zinc-800 hover:text-klein hover:underline" onClick={() => links.onOpenFile(proposal.target)} disabled={refused}>
          {proposal.target}
        </button>
        <span className="text-zinc-500">
          {t(`proposals.by.${proposal.by}`)} · {formatDateTime(proposal.created_at)}
        </span>
        {!refused && proposal.pending > 0 && (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setDiff(!diff)} data-testid="proposal-diff-toggle">
            <FileDiff /> {diff ? t("proposals.hideDiff") : t("proposals.showDiff")}
          </Button>
        )}
      </div>
      {proposal.summary && <p className="leading-relaxed text-zinc-700">{proposal.summary}</p>}
      {refused && <WarningLine text={t("proposals.refused", { reason: proposal.refused })} testId="proposal-refused" />}
      {proposal.over_budget && <WarningLine text={proposal.over_budget} testId="proposal-over-budget" />}
      {diff && !refused && <ProposalDiff id={proposal.id} target={proposal.target} />}
      <ul className="space-y-1">
        {proposal.hunks.map((hunk, i) => (
          <HunkRow key={i} hunk={hunk} index={i} refused={refused} links={links} decide={decide} />
        ))}
      </ul>
      {!refused && proposal.pending > 1 && (
        <div className="flex gap-1">
          <Button size="sm" variant="outline" onClick={() => void decide({ decision: "accept" })} data-testid="proposal-accept-all">
            {t("proposals.acceptAll")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => void decide({ decision: "reject" })} data-testid="proposal-reject-all">
            {t("proposals.rejectAll")}
          </Button>
        </div>
      )}
      {error && <p className="text-red-700" data-testid="proposal-error">{error}</p>}
      {done && <p className="text-emerald-700" data-testid="proposal-done">{done}</p>}
    </section>
  );
}

/** The review queue: what the memory helper proposed, a page at a time, waiting ones first shown. */
export function ProposalsView(links: ProposalLinks) {
  const { t } = useTranslation();
  const [state, setState] = useState<"pending" | "all">("pending");
  const [offset, setOffset] = useState(0);
  const { data, error } = useQuery({ queryKey: [...keys.proposals, state, offset], queryFn: () => api.proposals({ state, offset, limit: PAGE }) });
  const show = (next: "pending" | "all") => {
    setState(next);
    setOffset(0);
  };
  return (
    <div className="space-y-2" data-testid="proposals-view">
      <p className="px-1 text-xs leading-relaxed text-zinc-600">{t("proposals.intro")}</p>
      <div className="flex items-center gap-1 px-1" role="tablist">
        {(["pending", "all"] as const).map((s) => (
          <Button key={s} size="sm" variant={state === s ? "outline" : "ghost"} role="tab" aria-selected={state === s} onClick={() => show(s)} data-testid={`proposals-${s}`}>
            {t(s === "pending" ? "proposals.showPending" : "proposals.showAll")}
          </Button>
        ))}
        {data && data.total > PAGE && (
          <span className="ml-auto flex items-center gap-1 text-[11px] text-zinc-500" data-testid="proposals-paging">
            {t("proposals.page", { from: offset + 1, to: Math.min(offset + PAGE, data.total), total: data.total })}
            <Button size="sm" variant="ghost" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              {t("proposals.previous")}
            </Button>
            <Button size="sm" variant="ghost" disabled={offset + PAGE >= data.total} onClick={() => setOffset(offset + PAGE)} data-testid="proposals-next">
              {t("proposals.next")}
            </Button>
          </span>
        )}
      </div>
      {error && <p className="px-1 text-xs text-red-700">{error.message}</p>}
      {!data && !error && <p className="px-1 text-xs text-zinc-500">{t("proposals.loading")}</p>}
      {data?.proposals.length === 0 && (
        <p className="px-1 text-xs text-zinc-500" data-testid="proposals-empty">
          {t("proposals.empty")}
        </p>
      )}
      {data?.proposals.map((proposal) => <ProposalCard key={proposal.id} proposal={proposal} links={links} />)}
    </div>
  );
}
