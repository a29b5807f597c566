"use client";
import { useQueryClient } from "@tanstack/react-query";
import { Bot, ClipboardCheck, Loader2, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { keys, useAgents } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { relativeTime } from "@/i18n/format";
import { ProblemCard, WarningLine } from "@/components/ui/problem-card";
import { useTranslation } from "react-i18next";

const REVIEWER_FILE = "workspace/REVIEWER.md";
/** A role's file name: what `scan-roles` reads as `agents/<name>.md`. */
const ROLE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** A new role's file: the frontmatter the parser asks for, filled with a start the user edits. */
const roleTemplate = (name: string) => `---
name: ${name}
description: What this role does, in one line; the agent reads it to decide when to delegate.
tools: [read_file]
---
You are the ${name}. Do one task and report what you found or did, briefly.
`;

/** "New role": a name, then agents/<name>.md made from the template and opened in the Inspector. */
function NewRoleForm({ taken, onCancel, onCreated }: { taken: string[]; onCancel: () => void; onCreated: (path: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const problem = !trimmed ? null : !ROLE_NAME.test(trimmed) ? t("agents.roleNameHint") : taken.includes(trimmed) ? t("agents.roleTaken", { name: trimmed }) : null;
  const create = (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed || problem) return;
    const path = `agents/${trimmed}.md`;
    api.saveFile(path, roleTemplate(trimmed)).then(() => onCreated(path), (err: Error) => setError(err.message));
  };
  return (
    <form onSubmit={create} className="mb-2 space-y-1 rounded-lg border border-klein/30 bg-klein-50/30 p-2 text-xs" data-testid="role-form">
      <label className="block space-y-0.5 text-zinc-600">
        {t("agents.roleName")}
        <input autoFocus value={name} onChange={(e) => setName(e.target.value)} data-testid="role-name" className="w-full rounded border border-zinc-200 bg-white px-1.5 py-1 font-mono text-[12px]" />
      </label>
      <p className={problem || error ? "text-red-700" : "text-zinc-500"} data-testid="role-form-note">
        {error ?? problem ?? t("agents.roleNameHint")}
      </p>
      <div className="flex justify-end gap-1">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" size="sm" disabled={!trimmed || problem !== null} data-testid="role-create">
          {t("agents.createRole")}
        </Button>
      </div>
    </form>
  );
}

interface AgentsViewProps {
  openPath: string | null;
  onOpenFile: (path: string) => void;
}

/** The status view: roles available, delegations running, the reviewer (its switch and latest advice). */
export function AgentsView({ openPath, onOpenFile }: AgentsViewProps) {
  // Roles, delegations and reviews change on the server, which says so: this reads again then.
  const { t } = useTranslation();
  const { data: status, error: loadError } = useAgents();
  const queryClient = useQueryClient();
  const [switching, setSwitching] = useState(false);
  const [creating, setCreating] = useState(false);
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
  if (!status) return <div className="p-2 text-xs text-zinc-500">{t("agents.loading")}</div>;
  const { reviewer } = status;
  return (
    <div className="space-y-4" data-testid="agents-view">
      <section>
        <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("agents.reviewer")}</h3>
        <div className="rounded-lg border border-zinc-200 px-2.5 py-2">
          <label className="flex cursor-pointer items-center justify-between gap-2 text-[13px] text-zinc-800">
            <span className="flex items-center gap-1.5">
              <ClipboardCheck className="size-3.5 text-emerald-700" /> {t("agents.reviewEachTurn")}
            </span>
            <input type="checkbox" data-testid="reviewer-toggle" checked={reviewer.enabled} disabled={switching} onChange={() => void toggleReviewer()} className="size-4 accent-klein" />
          </label>
          <button type="button" onClick={() => onOpenFile(REVIEWER_FILE)} className="mt-1 font-mono text-[11px] text-klein hover:underline">
            {REVIEWER_FILE}
          </button>
          {reviewer.running.length > 0 && (
            <div className="mt-1 flex items-center gap-1 text-[11px] text-zinc-500" data-testid="reviewer-running">
              <Loader2 className="size-3 animate-spin" /> {t("agents.reviewing")}
            </div>
          )}
          {reviewer.latest && (
            <div className="mt-2 border-t border-zinc-100 pt-2 text-xs text-zinc-600" data-testid="reviewer-latest">
              <div className="text-[11px] text-zinc-500">{t("agents.latestAdvice")} · {relativeTime(reviewer.latest.ts)}</div>
              <div className="mt-0.5 whitespace-pre-wrap">{reviewer.latest.advice || t("agents.noAdvice")}</div>
            </div>
          )}
        </div>
      </section>

      <section>
        <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("agents.runningNow")}</h3>
        {status.running.length === 0 ? (
          <div className="px-1 text-xs text-zinc-500" data-testid="no-delegations">{t("agents.noDelegations")}</div>
        ) : (
          <ul className="space-y-1" data-testid="running-delegations">
            {status.running.map((d) => (
              <li key={d.call_id} className="rounded-md bg-klein-50 px-2 py-1.5 text-xs" data-testid="running-delegation">
                <div className="flex items-center gap-1 font-semibold text-klein">
                  <Loader2 className="size-3 animate-spin" /> {d.agent} <span className="font-normal text-zinc-500">· {t("agents.depth", { depth: d.depth })}</span>
                </div>
                <div className="mt-0.5 line-clamp-2 text-zinc-600">{d.task}</div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section>
        <div className="flex items-center justify-between px-1 pb-1">
          <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
            {t("agents.roles")} · {t("agents.depthLimit", { depth: status.max_depth })}
          </h3>
          <Button variant="ghost" size="sm" onClick={() => setCreating(true)} data-testid="role-new">
            <Plus /> {t("agents.newRole")}
          </Button>
        </div>
        {creating && <NewRoleForm taken={status.roles.map((r) => r.name)} onCancel={() => setCreating(false)} onCreated={(path) => (setCreating(false), onOpenFile(path))} />}
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
            {t("agents.roleHint")}
          </p>
        </div>
      </section>
    </div>
  );
}
