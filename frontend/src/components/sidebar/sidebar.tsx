"use client";
import type { SessionSummary, SkillsReply, WorkspaceFile } from "@mini-openclaw/protocol";
import type { ToastAction } from "@/components/ui/toaster";
import { Bot, Brain, CalendarClock, GitPullRequestArrow, Library, MessageSquare, PanelLeftClose, Plug, Settings, ShieldCheck, Sparkles } from "lucide-react";
import { skillPath } from "@/lib/skill-path";
import { usePendingProposals } from "@/lib/server-state";
import { cn } from "@/lib/utils";

import { AgentsView } from "./agents-view";
import { ApprovalsView } from "./approvals-view";
import { KnowledgeList } from "./knowledge-list";
import { McpView } from "./mcp-view";
import { FileButton } from "./file-button";
import { type SessionActions, SessionsView } from "./sessions-view";
import { SettingsList } from "./settings-list";
import { SkillsView } from "./skills-view";
import { TaskList } from "./task-list";
import { useTranslation } from "react-i18next";

export const SIDEBAR_VIEWS = ["chat", "tasks", "memory", "skills", "knowledge", "agents", "approvals", "mcp", "settings"] as const;
export type SidebarView = (typeof SIDEBAR_VIEWS)[number];

interface SidebarProps {
  view: SidebarView;
  onView: (view: SidebarView) => void;
  /** Shows the view's page in the Stage at an anchor (a task's card, a settings section). */
  onGo: (view: "tasks" | "settings" | "proposals", anchor?: string) => void;
  sessions: SessionSummary[];
  currentSession: string | null;
  sessionActions: SessionActions;
  skills: SkillsReply | null;
  memoryFiles: WorkspaceFile[];
  openPath: string | null;
  onOpenFile: (path: string) => void;
  locationPrefix: string;
  onSkillsChanged: () => void;
  onToast: (message: string, level?: "info" | "warning", action?: ToastAction) => void;
  /** Collapse the Sidebar to its rail (or close the drawer). */
  onCollapse: () => void;
  /** Scheduled runs that notified since the Tasks view was last open. */
  unseenRuns: number;
  /** Sessions with a call waiting for the user's approval (the Approvals button counts the calls). */
  waiting: { calls: number; sessions: ReadonlySet<string> };
}

const NAV: Array<{ id: SidebarView; icon: typeof Brain }> = [
  { id: "chat", icon: MessageSquare },
  { id: "tasks", icon: CalendarClock },
  { id: "memory", icon: Brain },
  { id: "skills", icon: Sparkles },
  { id: "knowledge", icon: Library },
  { id: "agents", icon: Bot },
  { id: "approvals", icon: ShieldCheck },
  { id: "mcp", icon: Plug },
  { id: "settings", icon: Settings },
];


const NAV_ITEM = "relative flex flex-col items-center gap-0.5 rounded-md py-1.5 text-[11px] font-medium transition-colors";

export function Sidebar(props: SidebarProps) {
  const { view, onView } = props;
  const { t } = useTranslation();
  const { data: pendingProposals = 0 } = usePendingProposals();
  return (
    <aside data-testid="sidebar" className="flex h-full min-h-0 flex-col bg-white">
      <nav aria-label={t("palette.group.views")} className="grid grid-cols-5 gap-1 border-b border-zinc-200/80 p-2">
        {NAV.map(({ id, icon: Icon }) => (
          <button
            key={id}
            type="button"
            data-testid={`nav-${id}`}
            onClick={() => onView(id)}
            className={cn(
              NAV_ITEM,
              view === id ? "bg-klein-50 text-klein" : "text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800",
            )}
          >
            <Icon className="size-4" />
            {t(`view.${id}`)}
            {id === "approvals" && props.waiting.calls > 0 && (
              <span data-testid="approvals-badge" aria-label={t("approvals.waitingCount", { count: props.waiting.calls })} className="absolute right-2 top-1 min-w-4 rounded-full bg-amber-500 px-1 text-[10px] leading-4 text-white">
                {props.waiting.calls}
              </span>
            )}
            {id === "memory" && pendingProposals > 0 && (
              <span data-testid="memory-badge" aria-label={t("memory.proposalsWaiting", { count: pendingProposals })} className="absolute right-2 top-1 min-w-4 rounded-full bg-klein px-1 text-[10px] leading-4 text-white">
                {pendingProposals}
              </span>
            )}
            {id === "tasks" && props.unseenRuns > 0 && (
              <span data-testid="tasks-badge" aria-label={t("tasks.unseen", { count: props.unseenRuns })} className="absolute right-2 top-1 min-w-4 rounded-full bg-klein px-1 text-[10px] leading-4 text-white">
                {props.unseenRuns}
              </span>
            )}
          </button>
        ))}
        {/* The last cell of the grid, named like the views around it: hiding the Sidebar costs no row of its own. */}
        <button type="button" aria-label={t("panes.collapseSidebar")} onClick={props.onCollapse} data-testid="sidebar-collapse" className={cn(NAV_ITEM, "text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800")}>
          <PanelLeftClose className="size-4" />
          {t("panes.collapse")}
        </button>
      </nav>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {view === "chat" && <SessionsView sessions={props.sessions} current={props.currentSession} waiting={props.waiting.sessions} {...props.sessionActions} />}
        {view === "tasks" && <TaskList onGo={(anchor) => props.onGo("tasks", anchor)} />}
        {view === "memory" && <MemoryList {...props} pendingProposals={pendingProposals} />}
        {view === "skills" && (
          <SkillsView
            skills={props.skills}
            openPath={props.openPath}
            onOpenFile={props.onOpenFile}
            toPath={(location) => skillPath(location, props.locationPrefix)}
            onInstalled={props.onSkillsChanged}
            onToast={props.onToast}
          />
        )}
        {view === "agents" && <AgentsView openPath={props.openPath} onOpenFile={props.onOpenFile} />}
        {view === "knowledge" && <KnowledgeList onOpenFile={props.onOpenFile} />}
        {view === "mcp" && <McpView onOpenFile={props.onOpenFile} />}
        {view === "settings" && <SettingsList onGo={(anchor) => props.onGo("settings", anchor)} />}
        {view === "approvals" && <ApprovalsView sessions={props.sessions} onOpenFile={props.onOpenFile} onOpenSession={(id) => props.sessionActions.onOpen(id)} />}
      </div>
    </aside>
  );
}

const isDailyLog = (path: string) => path.startsWith("memory/logs/");

function MemoryList({ memoryFiles, openPath, onOpenFile, onGo, pendingProposals }: SidebarProps & { pendingProposals: number }) {
  const logs = memoryFiles.filter((f) => isDailyLog(f.path)).sort((a, b) => b.path.localeCompare(a.path));
  const { t } = useTranslation();
  return (
    <div className="space-y-1">
      <p className="px-2 pb-2 text-xs leading-relaxed text-zinc-500">{t("memory.intro")}</p>
      {/* What the memory helper proposed: reviewed on its page in the Stage. */}
      <button type="button" onClick={() => onGo("proposals")} data-testid="proposals-open" className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-[13px] text-zinc-700 hover:bg-zinc-50">
        <GitPullRequestArrow className="size-3.5 text-klein" />
        <span className="flex-1">{t("memory.proposals")}</span>
        <span className={cn("text-[11px]", pendingProposals > 0 ? "font-medium text-klein" : "text-zinc-500")} data-testid="proposals-count">
          {pendingProposals > 0 ? t("memory.proposalsWaiting", { count: pendingProposals }) : t("memory.proposalsNone")}
        </span>
      </button>
      {memoryFiles
        .filter((f) => !isDailyLog(f.path))
        .map((f) => (
          <FileButton key={f.path} path={f.path} active={openPath === f.path} onOpen={onOpenFile} />
        ))}
      <h3 className="px-2 pt-3 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("memory.dailyLog")}</h3>
      <p className="px-2 pb-1 text-[11px] leading-relaxed text-zinc-500">{t("memory.dailyLogIntro")}</p>
      {logs.length === 0 && <div className="px-2 text-xs text-zinc-500" data-testid="no-daily-logs">{t("memory.noDailyLog")}</div>}
      {logs.map((f) => (
        <FileButton key={f.path} path={f.path} active={openPath === f.path} onOpen={onOpenFile} />
      ))}
    </div>
  );
}
