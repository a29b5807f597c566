"use client";
import type { SessionSummary, SkillsReply, WorkspaceFile } from "@mini-openclaw/protocol";
import { Bot, Brain, FileText, MessageSquare, Plus, Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn, relativeTime } from "@/lib/utils";

import { AgentsView } from "./agents-view";
import { ProblemCard, WarningLine } from "./problem-card";

export type SidebarView = "chat" | "memory" | "skills" | "agents";

interface SidebarProps {
  view: SidebarView;
  onView: (view: SidebarView) => void;
  sessions: SessionSummary[];
  currentSession: string | null;
  onOpenSession: (id: string) => void;
  onNewSession: () => void;
  skills: SkillsReply | null;
  memoryFiles: WorkspaceFile[];
  openPath: string | null;
  onOpenFile: (path: string) => void;
  locationPrefix: string;
  /** Bumped when roles, delegations or reviews change. */
  agentsRefresh: number;
}

const NAV: Array<{ id: SidebarView; label: string; icon: typeof Brain }> = [
  { id: "chat", label: "Chat", icon: MessageSquare },
  { id: "memory", label: "Memory", icon: Brain },
  { id: "skills", label: "Skills", icon: Sparkles },
  { id: "agents", label: "Agents", icon: Bot },
];

function stripPrefix(location: string, prefix: string) {
  const clean = location.replace(/^\.\//, "");
  const p = prefix.replace(/^\.\/?/, "");
  return p && clean.startsWith(`${p}/`) ? clean.slice(p.length + 1) : clean;
}

export function Sidebar(props: SidebarProps) {
  const { view, onView } = props;
  return (
    <aside data-testid="sidebar" className="flex h-full min-h-0 flex-col bg-white">
      <nav className="grid grid-cols-4 gap-1 border-b border-zinc-200/80 p-2">
        {NAV.map(({ id, label, icon: Icon }) => (
          <button
            key={id}
            type="button"
            data-testid={`nav-${id}`}
            onClick={() => onView(id)}
            className={cn(
              "flex flex-col items-center gap-0.5 rounded-md py-1.5 text-[11px] font-medium transition-colors",
              view === id ? "bg-klein-50 text-klein" : "text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800",
            )}
          >
            <Icon className="size-4" />
            {label}
          </button>
        ))}
      </nav>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {view === "chat" && <SessionList {...props} />}
        {view === "memory" && <MemoryList {...props} />}
        {view === "skills" && <SkillList {...props} />}
        {view === "agents" && <AgentsView refresh={props.agentsRefresh} openPath={props.openPath} onOpenFile={props.onOpenFile} />}
      </div>
    </aside>
  );
}

function SessionList({ sessions, currentSession, onOpenSession, onNewSession }: SidebarProps) {
  return (
    <div className="space-y-1">
      <Button variant="outline" className="mb-2 w-full justify-start" onClick={onNewSession} data-testid="new-session">
        <Plus />
        New session
      </Button>
      {sessions.length === 0 && <div className="px-2 py-4 text-center text-xs text-zinc-400">No sessions yet</div>}
      {sessions.map((s) => (
        <button
          key={s.id}
          type="button"
          data-testid="session-item"
          data-session-id={s.id}
          onClick={() => onOpenSession(s.id)}
          className={cn(
            "block w-full rounded-md px-2.5 py-2 text-left transition-colors",
            s.id === currentSession ? "bg-klein-50 ring-1 ring-klein-100" : "hover:bg-zinc-50",
          )}
        >
          <div className={cn("truncate text-[13px]", s.id === currentSession ? "font-semibold text-klein" : "text-zinc-800")}>{s.title}</div>
          <div className="mt-0.5 text-[11px] text-zinc-400">
            {relativeTime(s.updated_at)} · {s.message_count} messages
          </div>
        </button>
      ))}
    </div>
  );
}

function FileButton({ path, label, active, onOpen }: { path: string; label?: string; active: boolean; onOpen: (path: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onOpen(path)}
      data-testid="sidebar-file"
      data-path={path}
      className={cn("flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-[13px]", active ? "bg-klein-50 text-klein" : "text-zinc-700 hover:bg-zinc-50")}
    >
      <FileText className="size-3.5 shrink-0 text-zinc-400" />
      <span className="truncate font-mono text-xs">{label ?? path}</span>
    </button>
  );
}

function MemoryList({ memoryFiles, openPath, onOpenFile }: SidebarProps) {
  return (
    <div className="space-y-1">
      <p className="px-2 pb-2 text-xs leading-relaxed text-zinc-500">Long-term memory, sent with every turn. Edit it in the Inspector; the next turn sees the change.</p>
      {memoryFiles.map((f) => (
        <FileButton key={f.path} path={f.path} active={openPath === f.path} onOpen={onOpenFile} />
      ))}
    </div>
  );
}

function SkillList({ skills, openPath, onOpenFile, locationPrefix }: SidebarProps) {
  if (!skills) return <div className="p-2 text-xs text-zinc-400">Loading skills…</div>;
  return (
    <div className="space-y-2" data-testid="skills-list">
      {skills.skills.map((skill) => {
        const path = stripPrefix(skill.location, locationPrefix);
        return (
          <div key={skill.name}>
          <button
            type="button"
            data-testid="skill-item"
            onClick={() => onOpenFile(path)}
            className={cn("block w-full rounded-lg border px-2.5 py-2 text-left", openPath === path ? "border-klein-100 bg-klein-50" : "border-zinc-200 hover:bg-zinc-50")}
          >
            <div className="flex items-center gap-1.5 font-mono text-[13px] font-semibold text-zinc-800">
              <Sparkles className="size-3.5 text-klein" />
              {skill.name}
            </div>
            <div className="mt-1 line-clamp-3 text-xs text-zinc-500">{skill.description}</div>
            {skill.warnings.map((w) => (
              <WarningLine key={w} text={w} testId="skill-warning" />
            ))}
          </button>
            {skill.references.length > 0 && (
              <div className="ml-3 mt-1 border-l border-zinc-200 pl-1" data-testid="skill-references">
                {skill.references.map((ref) => (
                  <FileButton key={ref} path={ref} label={ref.split("/").slice(2).join("/")} active={openPath === ref} onOpen={onOpenFile} />
                ))}
              </div>
            )}
          </div>
        );
      })}
      {skills.problems.map((p) => (
        <ProblemCard key={p.folder} title={p.folder} reason={p.reason} testId="skill-problem" onOpen={() => onOpenFile(stripPrefix(p.location, locationPrefix))} />
      ))}
      <p className="px-1 pt-1 text-[11px] leading-relaxed text-zinc-400">
        Add a folder with a SKILL.md under skills/; new sessions pick it up.
      </p>
    </div>
  );
}
