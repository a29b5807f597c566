"use client";
import { CONSOLIDATION_TASK_ID, HEARTBEAT_TASK_ID, type SessionSearchHit, type SessionSummary } from "@mini-openclaw/protocol";
import { Braces, CalendarClock, ChevronRight, Download, FileUp, Pencil, Pin, PinOff, Plus, Repeat, ShieldAlert, Trash2 } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ActionIcons, MoreMenu, type MoreMenuItem } from "@/components/ui/more-menu";
import { SearchBox } from "@/components/ui/search-box";
import { api } from "@/lib/api";
import { useTasks } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { formatNumber, relativeTime } from "@/i18n/format";
import { markdownToPlain } from "@/lib/plain-text";
import { useTranslation } from "react-i18next";

export interface SessionActions {
  onOpen: (id: string, at?: { turn: number; query: string }) => void;
  onNew: () => void;
  onRename: (id: string, title: string | null) => void;
  onPin: (id: string, pinned: boolean) => void;
  onDelete: (session: SessionSummary) => void;
  onImport: (file: File) => void;
}

interface SessionsViewProps extends SessionActions {
  sessions: SessionSummary[];
  current: string | null;
  /** Sessions with a call waiting for the user's approval. */
  waiting: ReadonlySet<string>;
}

/** The query's words marked in a snippet (the search matches them case-insensitively). */
function marked(text: string, query: string): ReactNode[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [text];
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i} className="rounded-sm bg-amber-100 text-inherit">{part}</mark> : part));
}

/** Sessions: search across them, pinned first, and per session rename, pin, export and delete. */
export function SessionsView({ sessions, current, waiting, ...actions }: SessionsViewProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<{ query: string; results: SessionSearchHit[]; searched: number } | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setHits(null);
      setSearchError(null);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.searchSessions(q, abort.signal).then(
        (reply) => {
          setHits({ query: q, results: reply.results, searched: reply.searched });
          setSearchError(null);
        },
        (err: Error) => !abort.signal.aborted && setSearchError(err.message),
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, sessions]);

  return (
    <div className="space-y-1">
      <div className="mb-2 flex gap-1">
        <Button variant="outline" className="flex-1 justify-start" onClick={actions.onNew} data-testid="new-session">
          <Plus />
          {t("stage.newSession")}
        </Button>
        <Button variant="ghost" size="sm" data-tip={t("sessions.importTip")} onClick={() => picker.current?.click()} data-testid="session-import">
          <FileUp />
          {t("sessions.import")}
        </Button>
        <input
          ref={picker}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="session-import-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (file) actions.onImport(file);
          }}
        />
      </div>
      <SearchBox className="mb-2" value={query} onChange={setQuery} placeholder={t("sessions.search")} testId="session-search" />
      {query.trim() ? (
        <SearchResults hits={hits} error={searchError} onOpen={actions.onOpen} />
      ) : (
        <>
          {sessions.length === 0 && <div className="px-2 py-4 text-center text-xs text-zinc-500">{t("sessions.none")}</div>}
          {sessions
            .filter((s) => s.task_id === undefined && s.replay_of === undefined)
            .map((s) => (
              <SessionRow key={s.id} session={s} active={s.id === current} waiting={waiting.has(s.id)} {...actions} />
            ))}
          <TaskRunGroups sessions={sessions} current={current} waiting={waiting} actions={actions} />
        </>
      )}
    </div>
  );
}

function SearchResults({ hits, error, onOpen }: { hits: { query: string; results: SessionSearchHit[]; searched: number } | null; error: string | null; onOpen: SessionActions["onOpen"] }) {
  const { t } = useTranslation();
  if (error) return <div className="px-2 py-3 text-xs text-red-700">{error}</div>;
  if (!hits) return <div className="px-2 py-3 text-xs text-zinc-500">{t("sessions.searching")}</div>;
  return (
    <div className="space-y-1" data-testid="search-results">
      <div className="px-1 text-[11px] text-zinc-500">
        {hits.results.length === 0 ? t("sessions.noMatch") : t("sessions.matches", { found: `${formatNumber(hits.results.length)}${hits.results.length === 50 ? "+" : ""}`, count: hits.searched })}
      </div>
      {hits.results.map((hit) => (
        <button
          key={hit.id}
          type="button"
          data-testid="search-result"
          data-session-id={hit.id}
          onClick={() => onOpen(hit.id, hit.turn > 0 ? { turn: hit.turn, query: hits.query } : undefined)}
          className="block w-full rounded-md px-2.5 py-2 text-left hover:bg-zinc-50"
        >
          <div className="truncate text-[13px] text-zinc-800">{marked(hit.title, hits.query)}</div>
          {hit.snippet && <div className="mt-0.5 line-clamp-2 text-[11px] text-zinc-500">{marked(markdownToPlain(hit.snippet), hits.query)}</div>}
          <div className="mt-0.5 text-[11px] text-zinc-500">
            {hit.turn > 0 ? t("sessions.inTurn", { turn: hit.turn }) : t("sessions.inTitle")}
            {" · "}
            {relativeTime(hit.updated_at)}
          </div>
        </button>
      ))}
    </div>
  );
}

/** `waiting`: a call of this session waits for the user's approval. */
function SessionRow({ session: s, active, waiting, onOpen, onRename, onPin, onDelete }: { session: SessionSummary; active: boolean; waiting: boolean } & SessionActions) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(s.title);
  const icon = "rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700";
  const pin = s.pinned ? t("sessions.unpin") : t("sessions.pin");
  const rowActions: MoreMenuItem[] = [
    { label: t("sessions.rename"), icon: <Pencil />, onSelect: () => (setDraft(s.title), setEditing(true)), testId: "menu-rename", buttonTestId: "session-rename" },
    { label: pin, icon: s.pinned ? <PinOff /> : <Pin />, onSelect: () => onPin(s.id, !s.pinned), testId: "menu-pin", buttonTestId: "session-pin" },
    { label: t("sessions.exportMd"), icon: <Download />, href: api.exportUrl(s.id, "md"), onSelect: () => {}, testId: "menu-export-md", buttonTestId: "session-export-md" },
    { label: t("sessions.exportJson"), tip: t("sessions.exportJsonTip"), icon: <Braces />, href: api.exportUrl(s.id, "json"), onSelect: () => {}, testId: "menu-export-json", buttonTestId: "session-export-json" },
    { label: t("common.delete"), tip: t("sessions.deleteTip"), icon: <Trash2 />, onSelect: () => onDelete(s), danger: true, testId: "menu-delete", buttonTestId: "session-delete" },
  ];
  const save = () => {
    setEditing(false);
    const title = draft.trim();
    if (title !== s.title) onRename(s.id, title || null);
  };
  return (
    <div
      data-testid="session-item"
      data-session-id={s.id}
      data-pinned={s.pinned ? "true" : undefined}
      className={cn("group relative rounded-md transition-colors", active ? "bg-klein-50 ring-1 ring-klein-100" : "hover:bg-zinc-50")}
    >
      {editing ? (
        <input
          autoFocus
          data-testid="session-title-input"
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={save}
          onKeyDown={(e) => {
            if (e.key === "Enter") save();
            if (e.key === "Escape") setEditing(false);
          }}
          className="m-1 w-[calc(100%-0.5rem)] rounded border border-klein-100 px-1.5 py-1 text-[13px] outline-none"
        />
      ) : (
        <button type="button" data-testid="session-open" onClick={() => onOpen(s.id)} className="block w-full px-2.5 py-2 text-left">
          <div className={cn("flex items-center gap-1 truncate text-[13px]", active ? "font-semibold text-klein" : "text-zinc-800")}>
            {s.pinned && <Pin className="size-3 shrink-0 text-klein" aria-label={t("sessions.pinned")} />}
            {waiting && <ShieldAlert className="size-3.5 shrink-0 text-amber-600" aria-label={t("sessions.waiting")} data-testid="session-waiting" />}
            <span className="truncate" data-testid="session-title">{s.title}</span>
          </div>
          {/* Room for the row's controls when they show, so they never cover the date. */}
          <div className="mt-0.5 truncate text-[11px] text-zinc-600 group-focus-within:pr-28 group-hover:pr-28 pointer-coarse:pr-8" data-testid="session-meta">
            {relativeTime(s.updated_at)} · {t("sessions.messages", { count: s.message_count })}
          </div>
        </button>
      )}
      {!editing && (
        // On the row's second line, beside the date: never over the title, and showing them moves nothing.
        // Shown on hover and on keyboard focus; a touch screen (no hover) gets them as a menu with their names.
        <div className="absolute right-1 bottom-0.5 hidden items-center gap-0.5 rounded bg-inherit group-focus-within:flex group-hover:flex pointer-coarse:hidden" data-testid="session-actions">
          <ActionIcons items={rowActions} className={icon} />
        </div>
      )}
      {!editing && <MoreMenu className="absolute right-0.5 bottom-0 hidden pointer-coarse:block" testId="session-more" label={t("sessions.actions", { title: s.title })} items={rowActions} />}
    </div>
  );
}

/**
 * The sessions scheduled runs made, under their task (newest task first), and the replays of turns,
 * apart from the chats: a task that runs every minute does not bury them. A group opens by itself while
 * it holds the open session or one waiting for approval.
 */
function TaskRunGroups({ sessions, current, waiting, actions }: { sessions: SessionSummary[]; current: string | null; waiting: ReadonlySet<string>; actions: SessionActions }) {
  const { t } = useTranslation();
  const names = new Map([...useTaskNames(), [REPLAYS, t("sessions.replays")]]);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const groups = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const key = s.task_id ?? (s.replay_of ? REPLAYS : undefined);
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  if (groups.size === 0) return null;
  return (
    <div className="mt-3 space-y-1 border-t border-zinc-100 pt-2" data-testid="task-run-groups">
      <div className="px-2 text-[11px] font-medium uppercase tracking-wide text-zinc-500">{t("sessions.taskRuns")}</div>
      {[...groups].map(([taskId, runs]) => {
        const open = opened.has(taskId) || runs.some((s) => s.id === current || waiting.has(s.id));
        const toggle = () => setOpened((was) => (was.has(taskId) ? new Set([...was].filter((id) => id !== taskId)) : new Set([...was, taskId])));
        return (
          <div key={taskId} data-testid="task-run-group" data-task={taskId}>
            <button type="button" aria-expanded={open} onClick={toggle} className="flex w-full items-center gap-1.5 rounded-md px-2 py-1 text-left text-[13px] text-zinc-700 hover:bg-zinc-50">
              <ChevronRight className={cn("size-3.5 shrink-0 text-zinc-500 transition-transform", open && "rotate-90")} />
              {taskId === REPLAYS ? <Repeat className="size-3.5 shrink-0 text-zinc-500" /> : <CalendarClock className="size-3.5 shrink-0 text-zinc-500" />}
              <span className="min-w-0 flex-1 truncate">{names.get(taskId) ?? t("sessions.deletedTask")}</span>
              <span className="shrink-0 text-[11px] text-zinc-500">{t("sessions.runs", { count: runs.length })}</span>
            </button>
            {open && (
              <div className="ml-3 border-l border-zinc-100 pl-1">
                {runs.map((s) => (
                  <SessionRow key={s.id} session={s} active={s.id === current} waiting={waiting.has(s.id)} {...actions} />
                ))}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** The group the replays of turns are listed in (no task has this id). */
const REPLAYS = "replays";

/** Tasks' names by id (the heartbeat's and the consolidation's too), from the tasks the page has read. */
function useTaskNames(): Map<string, string> {
  const { t } = useTranslation();
  const tasks = useTasks().data?.tasks ?? [];
  return new Map([[HEARTBEAT_TASK_ID, t("tasks.heartbeat")], [CONSOLIDATION_TASK_ID, t("consolidation.title")], ...tasks.map((task) => [task.id, task.name] as [string, string])]);
}
