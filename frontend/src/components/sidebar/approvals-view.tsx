"use client";
import type { ApprovalsReply } from "@mini-openclaw/protocol";
import { FileCog, ShieldAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useApprovals } from "@/lib/server-state";
import { ApprovalRequestCard } from "@/components/stage/approval-card";
import { WarningLine } from "./problem-card";

const MODE_LABELS = { off: "runs", ask: "always asks", "ask-unlisted": "asks unless allowed", deny: "never runs" } as const;

/**
 * What waits for a decision in any session (decidable here, from any tab), and the policy in force:
 * per tool its mode and rules, from APPROVALS.json, which the Inspector edits.
 */
export function ApprovalsView({ onOpenFile, onOpenSession }: { onOpenFile: (path: string) => void; onOpenSession: (id: string) => void }) {
  // A request that comes or goes, and an edit of APPROVALS.json, are told by the server: this reads again then.
  const { data: reply, error } = useApprovals();
  if (error) return <div className="p-2 text-xs text-red-700">{error.message}</div>;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">Loading approvals…</div>;
  return (
    <div className="space-y-3" data-testid="approvals-view">
      {reply.off && <WarningLine text="APPROVALS=off: every call runs without asking." />}
      {reply.problem && <WarningLine text={reply.problem} testId="approvals-problem" />}
      <section className="space-y-1.5">
        <h3 className="px-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Waiting ({reply.pending.length})</h3>
        {reply.pending.length === 0 && <div className="px-1 text-xs text-zinc-500">Nothing waits for you.</div>}
        {reply.pending.map((request) => (
          <div key={request.id} className="rounded-lg border border-zinc-200 pt-2" data-testid="pending-approval">
            <button type="button" className="px-3 pb-1 text-[11px] text-klein hover:underline" onClick={() => onOpenSession(request.session_id)}>
              session {request.session_id}
            </button>
            <ApprovalRequestCard request={request} />
          </div>
        ))}
      </section>
      <section className="space-y-1.5">
        <div className="flex items-center justify-between px-1">
          <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Policy</h3>
          <Button variant="ghost" size="sm" onClick={() => onOpenFile("APPROVALS.json")} data-testid="edit-approvals">
            <FileCog /> Edit APPROVALS.json
          </Button>
        </div>
        {([...Object.entries(reply.policy.tools), ...(reply.policy.mcp ? [["MCP tools", reply.policy.mcp]] : [])] as Array<[string, ApprovalsReply["policy"]["tools"]["terminal"]]>).map(([tool, policy]) => (
          <div key={tool} className="rounded-lg border border-zinc-200 px-2.5 py-2 text-xs" data-testid="approval-policy" data-tool={tool}>
            <div className="flex items-center gap-1.5">
              <ShieldAlert className="size-3.5 text-klein" />
              <span className="font-mono font-semibold text-zinc-800">{tool}</span>
              <span className="text-zinc-500" data-testid="approval-mode">{MODE_LABELS[policy.mode]}</span>
            </div>
            {policy.allow.length > 0 && (
              <div className="mt-1 text-[11px] text-zinc-600" data-testid="approval-allow">
                allow: {policy.allow.map((r) => <code key={r} className="mr-1 rounded bg-emerald-50 px-1 text-emerald-800">{r}</code>)}
              </div>
            )}
            {policy.deny.length > 0 && (
              <div className="mt-1 text-[11px] text-zinc-600">
                deny: {policy.deny.map((r) => <code key={r} className="mr-1 rounded bg-red-50 px-1 text-red-800">{r}</code>)}
              </div>
            )}
          </div>
        ))}
        <p className="px-1 text-[11px] leading-relaxed text-zinc-500">
          Asks time out after {reply.policy.timeout_seconds} s (denied). A deny rule wins over any allow rule.
        </p>
      </section>
    </div>
  );
}
