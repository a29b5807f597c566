"use client";
import { useQueryClient } from "@tanstack/react-query";
import { Bot, ClipboardCheck, Loader2 } from "lucide-react";
import { useState } from "react";
import { api } from "@/lib/api";
import { keys, useAgents } from "@/lib/server-state";
import { cn, relativeTime } from "@/lib/utils";
import { ProblemCard, WarningLine } from "./problem-card";

interface AgentsViewProps {
  openPath: string | null;
  onOpenFile: (path: string) => void;
}

/** The status view: roles available, delegations running, the reviewer (its switch and latest advice). */
export function AgentsView({ openPath, onOpenFile }: AgentsViewProps) {
  // Roles, delegations and reviews change on the server, which says so: this reads again then.
  const { data: status, error: loadError } = useAgents();
  const queryClient = useQueryClient();
  const [switching, setSwitching] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const error = actionError ?? loadError?.message;

  const toggleReviewer = async () => {
    if (!status) return;
    setSwitching(true);
    try {
      const reviewer = await api.setReviewer(!status.reviewer.enabled);
      queryClient.setQueryData(keys.agents, { ...status, reviewer });
    } catch (err) {
      setActionError((err as Error).message);
    } finally {
      setSwitching(false);
    }
  };

  if (error) return <div className="p-2 text-xs text-red-700">{error}</div>;
  if (!status) return <div className="p-2 text-xs text-zinc-500">Loading agents…</div>;
  const { reviewer } = status;
  return (
    <div className="space-y-4" data-testid="agents-view">
      <section>
        <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Reviewer</h3>
        <div className="rounded-lg border border-zinc-200 px-2.5 py-2">
          <label className="flex cursor-pointer items-center justify-between gap-2 text-[13px] text-zinc-800">
            <span className="flex items-center gap-1.5">
              <ClipboardCheck className="size-3.5 text-emerald-700" /> Review each finished turn
            </span>
            <input type="checkbox" data-testid="reviewer-toggle" checked={reviewer.enabled} disabled={switching} onChange={() => void toggleReviewer()} className="size-4 accent-klein" />
          </label>
          <button type="button" onClick={() => onOpenFile("workspace/REVIEWER.md")} className="mt-1 font-mono text-[11px] text-klein hover:underline">
            workspace/REVIEWER.md
          </button>
          {reviewer.running.length > 0 && (
            <div className="mt-1 flex items-center gap-1 text-[11px] text-zinc-500" data-testid="reviewer-running">
              <Loader2 className="size-3 animate-spin" /> reviewing…
            </div>
          )}
          {reviewer.latest && (
            <div className="mt-2 border-t border-zinc-100 pt-2 text-xs text-zinc-600" data-testid="reviewer-latest">
              <div className="text-[11px] text-zinc-500">Latest advice · {relativeTime(reviewer.latest.ts)}</div>
              <div className="mt-0.5 whitespace-pre-wrap">{reviewer.latest.advice || "(none: all was well)"}</div>
            </div>
          )}
        </div>
      </section>

      <section>
        <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Running now</h3>
        {status.running.length === 0 ? (
          <div className="px-1 text-xs text-zinc-500" data-testid="no-delegations">No delegations running.</div>
        ) : (
          <ul className="space-y-1" data-testid="running-delegations">
            {status.running.map((d) => (
              <li key={d.call_id} className="rounded-md bg-klein-50 px-2 py-1.5 text-xs" data-testid="running-delegation">
                <div className="flex items-center gap-1 font-semibold text-klein">
                  <Loader2 className="size-3 animate-spin" /> {d.agent} <span className="font-normal text-zinc-500">· depth {d.depth}</span>
                </div>
                <div className="mt-0.5 line-clamp-2 text-zinc-600">{d.task}</div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section>
        <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">Roles · depth limit {status.max_depth}</h3>
        <div className="space-y-2">
          {status.roles.map((role) => (
            <button
              key={role.name}
              type="button"
              data-testid="role-item"
              onClick={() => onOpenFile(role.path)}
              className={cn("block w-full rounded-lg border px-2.5 py-2 text-left", openPath === role.path ? "border-klein-100 bg-klein-50" : "border-zinc-200 hover:bg-zinc-50")}
            >
              <div className="flex items-center gap-1.5 font-mono text-[13px] font-semibold text-zinc-800">
                <Bot className="size-3.5 text-klein" /> {role.name}
                {role.model && <span className="font-sans text-[11px] font-normal text-zinc-500">· {role.model}</span>}
              </div>
              <div className="mt-1 line-clamp-3 text-xs text-zinc-500">{role.description}</div>
              <div className="mt-1 flex flex-wrap gap-1">
                {role.tools.map((tool) => (
                  <span key={tool} className="rounded bg-zinc-100 px-1 font-mono text-[10px] text-zinc-600">
                    {tool}
                  </span>
                ))}
              </div>
              {role.warnings.map((w) => (
                <WarningLine key={w} text={w} />
              ))}
            </button>
          ))}
          {status.problems.map((p) => (
            <ProblemCard key={p.path} title={p.path} reason={p.reason} testId="role-problem" onOpen={() => onOpenFile(p.path)} />
          ))}
          <p className="px-1 text-[11px] leading-relaxed text-zinc-500">
            A role is agents/&lt;name&gt;.md: frontmatter name, description, tools (and optionally model); the body is its instructions. The agent
            hands tasks to roles with the delegate tool.
          </p>
        </div>
      </section>
    </div>
  );
}
