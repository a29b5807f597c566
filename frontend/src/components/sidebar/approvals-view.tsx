"use client";
import type { ApprovalsReply, SessionSummary } from "@mini-openclaw/protocol";
import { useState } from "react";
import { cn } from "@/lib/utils";
import { FileCog, ShieldAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useApprovals } from "@/lib/server-state";
import { ApprovalRequestCard } from "@/components/stage/approval-card";
import { WarningLine } from "@/components/ui/problem-card";
import { useTranslation } from "react-i18next";

/** Rules shown before "show all": a terminal allow list can hold sixty commands. */
const RULES_SHOWN = 8;

/** A policy's allow or deny rules, wrapped, the long lists folded. */
function Rules({ kind, rules }: { kind: "allow" | "deny"; rules: string[] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const shown = all ? rules : rules.slice(0, RULES_SHOWN);
  return (
    <div className="mt-1 flex flex-wrap items-baseline gap-1 text-[11px] text-zinc-600" data-testid={`approval-${kind}`}>
      <span>{t(`approvals.${kind}`)}</span>
      {shown.map((r) => (
        <code key={r} className={cn("max-w-full rounded px-1 break-all", kind === "allow" ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800")}>
          {r}
        </code>
      ))}
      {rules.length > RULES_SHOWN && (
        <button type="button" className="text-klein hover:underline" aria-expanded={all} onClick={() => setAll(!all)} data-testid={`approval-${kind}-more`}>
          {all ? t("approvals.showFewer") : t("approvals.showAll", { count: rules.length })}
        </button>
      )}
    </div>
  );
}

/**
 * What waits for a decision in any session (decidable here, from any tab), and the policy in force:
 * per tool its mode and rules, from APPROVALS.json, which the Inspector edits.
 */
export function ApprovalsView({ sessions, onOpenFile, onOpenSession }: { sessions: SessionSummary[]; onOpenFile: (path: string) => void; onOpenSession: (id: string) => void }) {
  const { t } = useTranslation();
  // A request that comes or goes, and an edit of APPROVALS.json, are told by the server: this reads again then.
  const { data: reply, error } = useApprovals();
  if (error) return <div className="p-2 text-xs text-red-700">{error.message}</div>;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">{t("approvals.loading")}</div>;
  return (
    <div className="space-y-3" data-testid="approvals-view">
      {reply.off && <WarningLine text={t("approvals.off")} />}
      {reply.problem && <WarningLine text={reply.problem} testId="approvals-problem" />}
      <section className="space-y-1.5">
        <h3 className="px-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("approvals.waiting", { count: reply.pending.length })}</h3>
        {reply.pending.length === 0 && <div className="px-1 text-xs text-zinc-500">{t("approvals.nothing")}</div>}
        {reply.pending.map((request) => (
          <div key={request.id} className="rounded-lg border border-zinc-200 pt-2" data-testid="pending-approval">
            <button type="button" className="block max-w-full truncate px-3 pb-1 text-left text-[11px] text-klein hover:underline" onClick={() => onOpenSession(request.session_id)} data-testid="pending-approval-session">
              {sessions.find((s) => s.id === request.session_id)?.title ?? t("stage.session")}
            </button>
            <ApprovalRequestCard request={request} />
          </div>
        ))}
      </section>
      <section className="space-y-1.5">
        <div className="flex items-center justify-between px-1">
          <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("approvals.policy")}</h3>
          <Button variant="ghost" size="sm" onClick={() => onOpenFile("APPROVALS.json")} data-testid="edit-approvals">
            <FileCog /> {t("common.editFile", { file: "APPROVALS.json" })}
          </Button>
        </div>
        {([...Object.entries(reply.policy.tools), ...(reply.policy.mcp ? [[t("approvals.mcpTools"), reply.policy.mcp]] : [])] as Array<[string, ApprovalsReply["policy"]["tools"]["terminal"]]>).map(([tool, policy]) => (
          <div key={tool} className="rounded-lg border border-zinc-200 px-2.5 py-2 text-xs" data-testid="approval-policy" data-tool={tool}>
            <div className="flex items-center gap-1.5">
              <ShieldAlert className="size-3.5 text-klein" />
              <span className="font-mono font-semibold text-zinc-800">{tool}</span>
              <span className="text-zinc-500" data-testid="approval-mode">{t(`approvals.mode.${policy.mode}`)}</span>
            </div>
            {policy.allow.length > 0 && <Rules kind="allow" rules={policy.allow} />}
            {policy.deny.length > 0 && <Rules kind="deny" rules={policy.deny} />}
          </div>
        ))}
        <p className="px-1 text-[11px] leading-relaxed text-zinc-500">
          {t("approvals.timeout", { count: reply.policy.timeout_seconds })}
        </p>
      </section>
    </div>
  );
}
