"use client";
import type { ApprovalEvent, ApprovalRequestEvent } from "@mini-openclaw/protocol";
import { ShieldAlert, ShieldCheck, ShieldX } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { formatTime } from "@/i18n/format";

function decisionText(decision: ApprovalEvent, t: TFunction): string {
  const rule = decision.rule ?? "";
  if (decision.decision === "approved") {
    return decision.by === "rule" ? t("approval.decided.allowedByRule", { rule }) : decision.rule ? t("approval.decided.always", { rule }) : t("approval.decided.once");
  }
  switch (decision.by) {
    case "rule":
      return t("approval.decided.refusedByRule", { rule });
    case "timeout":
      return t("approval.decided.timeout");
    case "stop":
      return t("approval.decided.stopped");
    default:
      return decision.reason ? t("approval.decided.deniedBecause", { reason: decision.reason }) : t("approval.decided.denied");
  }
}

/** How a governed call was decided, in one line. */
export function ApprovalDecisionLine({ decision }: { decision: ApprovalEvent }) {
  const Icon = decision.decision === "approved" ? ShieldCheck : ShieldX;
  const { t } = useTranslation();
  return (
    <div data-testid="approval-decision" data-decision={decision.decision} className={decision.decision === "approved" ? "flex items-center gap-1.5 px-3 pb-2 text-xs text-emerald-700" : "flex items-center gap-1.5 px-3 pb-2 text-xs text-red-700"}>
      <Icon className="size-3.5 shrink-0" />
      {decisionText(decision, t)}
    </div>
  );
}

/**
 * A call that waits for the user: exactly what would run, which skill asked, and where it would
 * run; Approve once, Always allow (the proposed rule, editable), or Deny with a reason the agent reads.
 */
export function ApprovalRequestCard({ request }: { request: ApprovalRequestEvent }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"choose" | "always" | "deny">("choose");
  const [rule, setRule] = useState(request.proposal);
  const [reason, setReason] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = (body: Parameters<typeof api.decideApproval>[1]) => {
    setSent(true);
    api.decideApproval(request.id, body).then(
      () => setError(null),
      (err: Error) => {
        setSent(false);
        setError(err.message);
      },
    );
  };
  return (
    <div data-testid="approval-card" data-approval-id={request.id} className="mx-3 mb-2 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-2.5 text-xs text-amber-950">
      <div className="flex items-center gap-1.5 font-semibold">
        <ShieldAlert className="size-4 shrink-0 text-amber-700" />
        {request.skill ? t("approval.wantsToRunSkill", { tool: request.tool, skill: request.skill }) : t("approval.wantsToRun", { tool: request.tool })}
      </div>
      {request.hook_reason && <div data-testid="approval-hook-reason" className="text-[11px] font-medium text-amber-900">{t("approval.hookAsks", { reason: request.hook_reason })}</div>}
      <pre data-testid="approval-subject" className="max-h-60 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-[12px] text-zinc-800">
        {request.subject}
      </pre>
      <div className="text-[11px] text-amber-800">
        {t("approval.runsIn", { sandbox: request.sandbox, until: formatTime(request.expires_at) })}
      </div>
      {mode === "choose" && (
        <div className="flex flex-wrap gap-1.5">
          <Button size="sm" disabled={sent} onClick={() => decide({ decision: "approve" })} data-testid="approval-approve">
            {t("approval.approveOnce")}
          </Button>
          {/* A hook's question is asked each time: no rule answers it for next time. */}
          {request.proposal && (
            <Button size="sm" variant="outline" disabled={sent} onClick={() => setMode("always")} data-testid="approval-always">
              {t("approval.alwaysAllow")}
            </Button>
          )}
          <Button size="sm" variant="outline" disabled={sent} onClick={() => setMode("deny")} data-testid="approval-deny">
            {t("approval.denyEllipsis")}
          </Button>
        </div>
      )}
      {mode === "always" && (
        <div className="flex flex-wrap items-center gap-1.5">
          <span>{t("approval.allowFromNowOn")}</span>
          <input data-testid="approval-rule" value={rule} onChange={(e) => setRule(e.target.value)} className="min-w-40 flex-1 rounded border border-amber-300 bg-white px-1.5 py-1 font-mono" />
          <Button size="sm" disabled={sent || !rule.trim()} onClick={() => decide({ decision: "always", rule: rule.trim() })} data-testid="approval-rule-save">
            {t("approval.allowAndRun")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode("choose")}>
            {t("common.back")}
          </Button>
        </div>
      )}
      {mode === "deny" && (
        <div className="flex flex-wrap items-center gap-1.5">
          <input
            data-testid="approval-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t("approval.whyNot")}
            className="min-w-40 flex-1 rounded border border-amber-300 bg-white px-1.5 py-1"
          />
          <Button size="sm" variant="outline" disabled={sent} onClick={() => decide({ decision: "deny", ...(reason.trim() ? { reason: reason.trim() } : {}) })} data-testid="approval-deny-confirm">
            {t("approval.deny")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode("choose")}>
            {t("common.back")}
          </Button>
        </div>
      )}
      {error && <div className="text-red-700" data-testid="approval-error">{error}</div>}
    </div>
  );
}
