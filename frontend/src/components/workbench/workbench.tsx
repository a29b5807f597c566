"use client";
import { notify } from "@/lib/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "@/lib/api";
import { skillPath } from "@/lib/skill-path";
import { keys, useApprovals, useFiles, useHealth, useModels, useSessions, useSkills } from "@/lib/server-state";
import { useChat } from "@/lib/use-chat";
import { HealthBanner } from "./health-banner";
import { Inspector } from "../inspector/inspector";
import { SIDEBAR_VIEWS, Sidebar, type SidebarView } from "../sidebar/sidebar";
import { KnowledgeView } from "../pages/knowledge-view";
import { TasksView } from "../pages/tasks-view";
import { ProposalsView } from "../pages/proposals-view";
import { SettingsPage } from "../pages/settings-page";
import { isStagePage, StagePage, type StagePageName, type StagePageState } from "./stage-page";
import { cn } from "@/lib/utils";
import { Stage } from "../stage/stage";
import { ModelPicker } from "../stage/model-picker";
import { ModelDialog } from "../settings/model-dialog";
import { TopBar } from "./top-bar";
import { Toaster, useToasts } from "../ui/toaster";
import { CitationContext } from "../stage/markdown";
import { ChangeContext } from "../stage/changed-files";
import { AttachmentContext } from "../stage/attachment-chips";
import { type BrowserCardActions, BrowserCardContext } from "../stage/tool-views/browser";
import { RewindDialog } from "../stage/rewind-dialog";
import { ReplayDialog } from "../stage/replay-dialog";
import { CompareView } from "../pages/compare-view";
import { CommandPalette, type PaletteItem, ShortcutsDialog } from "./command-palette";
import { type PaneToggles, WorkbenchPanes } from "./workbench-panes";
import { useInspectorNavigation } from "./use-inspector-navigation";
import { useServerEvents } from "./use-server-events";
import { useSessionActions } from "./use-session-actions";
import { useShortcuts } from "./use-shortcuts";
import { TooltipLayer } from "../ui/tooltip-layer";
import { useTheme } from "@/lib/theme";
import { useTranslation } from "react-i18next";
import { i18n, type Language, LANGUAGES, preferredLanguage } from "@/i18n/language";
import { useLanguage } from "@/i18n/language-provider";
import { toastText } from "@/i18n/server-messages";

const PAGE_TITLE = "mini OpenClaw";

/** The three-pane IDE: Sidebar (navigation, sessions), Stage (the conversation), Inspector (files, prompt). */
export function Workbench() {
  const { t } = useTranslation();
  const { setLanguage } = useLanguage();
  const queryClient = useQueryClient();
  const healthQuery = useHealth();
  const { data: models } = useModels();
  const health = healthQuery.data ?? null;
  const unreachable = healthQuery.isError;
  const [modelDialog, setModelDialog] = useState(false);
  const sessions = useSessions().data ?? [];
  // Calls waiting for the user anywhere: counted on the Approvals button, marked on their sessions, in the tab's title.
  const pending = useApprovals().data?.pending;
  const waiting = useMemo(() => ({ calls: pending?.length ?? 0, sessions: new Set((pending ?? []).map((p) => p.session_id)) }), [pending]);
  const skills = useSkills().data ?? null;
  const files = useFiles().data ?? [];
  const [view, setView] = useState<SidebarView>("chat");
  /** A view that needs room, shown in the Stage's place (its list stays in the Sidebar). */
  const [page, setPage] = useState<StagePageState | null>(null);
  const showPage = useCallback((name: StagePageName, anchor?: string) => setPage((p) => ({ name, anchor, nonce: (p?.nonce ?? 0) + 1 })), []);
  /** Bumped per path when the backend reports the file changed on disk. */
  const [diskChanges, setDiskChanges] = useState<Record<string, number>>({});

  /** After this page changed something: the lists it shows are read again. */
  const refreshLists = useCallback(() => {
    for (const key of [keys.sessions, keys.skills, keys.files]) void queryClient.invalidateQueries({ queryKey: key });
  }, [queryClient]);

  const onTurnEnd = useCallback(() => {
    refreshLists();
    void queryClient.invalidateQueries({ queryKey: ["prompt"] });
  }, [refreshLists, queryClient]);
  const chat = useChat(onTurnEnd);
  const inspector = useInspectorNavigation(chat.sessionId);
  const { openFile, openAt, showChange, showAttachment, showPicture } = inspector;
  /** The session a review just landed in; it is reloaded once no turn streams. */
  const [reviewed, setReviewed] = useState<{ sessionId: string; at: number } | null>(null);
  // `open` and `compact` keep their identity for the page's life.
  const { open: openSession, compact: compactSession, streaming, sessionId: shownSessionId } = chat;
  useEffect(() => {
    // While a turn streams, its session id may not be known here yet (the review's event can overtake the
    // turn's own stream): wait for the turn to end, then compare.
    if (!reviewed || streaming) return;
    setReviewed(null);
    if (reviewed.sessionId !== shownSessionId) return; // another session: it shows the review when opened
    void openSession(reviewed.sessionId);
  }, [reviewed, streaming, shownSessionId, openSession]);
  const toasts = useToasts();
  const showToast = toasts.show;
  /** Runs that notified since the Tasks view was last open (its badge). */
  const [unseenRuns, setUnseenRuns] = useState(0);
  useServerEvents({
    turnStarted: chat.noticeTurn,
    queueChanged: chat.setQueue,
    reviewed: (sessionId) => setReviewed({ sessionId, at: Date.now() }),
    fileChanged: (path) => setDiskChanges((d) => ({ ...d, [path]: (d[path] ?? 0) + 1 })),
    toast: (event) => showToast(toastText(event.message, event.notice), event.level),
    // A scheduled run ended or waits for approval: a toast in this tab, a browser notification if allowed, the badge.
    taskRun: ({ task_name: name, run, waiting_approval: waiting }) => {
      const text = waiting
        ? i18n.t("tasks.toast.waiting", { name })
        : run.outcome === "failed"
          ? i18n.t("tasks.toast.failed", { name, detail: run.detail ?? i18n.t("tasks.toast.seeSession") })
          : i18n.t("tasks.toast.finished", { name, detail: (run.detail ?? "").slice(0, 120) });
      const open = run.session_id ? () => void openSession(run.session_id!) : undefined;
      showToast(text, waiting || run.outcome === "failed" ? "warning" : "info", open ? { label: i18n.t("common.open"), run: open } : undefined);
      notify(`Mini-OpenClaw: ${name}`, text, `${run.id}${waiting ? ":approval" : ""}`, open);
      if (view !== "tasks") setUnseenRuns((n) => n + 1);
    },
  });
  const compact = useCallback(async () => {
    try {
      const reply = await compactSession();
      if (reply && !reply.compacted) showToast(reply.reason ?? i18n.t("compact.nothing"));
    } catch (err) {
      showToast((err as Error).message, "warning");
    }
  }, [compactSession, showToast]);

  useEffect(() => {
    // The page is interactive from here on (browser tests wait for this before they click).
    document.documentElement.dataset.ready = "true";
    const fromHash = /session=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
    if (fromHash) void openSession(fromHash);
  }, [openSession]);

  useEffect(() => {
    // A new data root's first browser says its language, once: the default files still as shipped follow it.
    void api
      .defaultsLanguage()
      .then((state) => (state.pending ? api.chooseDefaultsLanguage(preferredLanguage()) : null))
      .then((chosen) => {
        if (!chosen?.replaced?.length) return;
        refreshLists();
        void queryClient.invalidateQueries({ queryKey: ["prompt"] });
      })
      .catch(() => {}); // another tab chose first (409), or the server is away: nothing to do here
  }, [refreshLists, queryClient]);

  const theme = useTheme();
  const paneToggles = useRef<PaneToggles | null>(null);
  const { palette, setPalette, shortcuts, setShortcuts } = useShortcuts();
  const onView = (next: SidebarView) => {
    setView(next);
    // Tasks, Knowledge and Settings need room: their page takes the Stage; the other views go with the conversation.
    if (isStagePage(next)) showPage(next);
    else setPage(null);
    if (next === "tasks") setUnseenRuns(0);
    if (next === "memory") openFile("memory/MEMORY.md");
  };
  // Another session shown (opened, new, a run's badge clicked): the Stage is the conversation again.
  useEffect(() => setPage(null), [shownSessionId]);

  const { sessionActions, latestSessionActions, turnActions, highlight, rewindTurn, setRewindTurn, replayTurn, setReplayTurn, failed } = useSessionActions(chat, refreshLists, showToast);
  /** The runs the Compare page shows (`session:turn,…`). */
  const [compareRuns, setCompareRuns] = useState<string | null>(null);
  /** A run's session, from the Tasks page: the page gives the Stage back even when that session is already shown. */
  const openRun = (id: string) => {
    setPage(null);
    sessionActions.onOpen(id);
  };

  // A browser card's screenshot opens in the Inspector; its page is saved by the session's own browser.
  const browserSession = chat.sessionId;
  const browserCard = useMemo<BrowserCardActions>(() => ({
    openScreenshot: showPicture,
    saveToKnowledge: async (url) => {
      if (!browserSession) throw new Error("no session");
      const { path } = await api.savePage(browserSession, url);
      refreshLists();
      return path;
    },
  }), [showPicture, browserSession, refreshLists]);

  // The turns a rewind undoes: the chosen one and those after it on the branch shown.
  const shownTurns = chat.turns;
  const rewindFrom = useMemo(() => {
    if (rewindTurn === null) return [];
    const branchTurns = shownTurns.flatMap((t) => (t.branch ? [t.branch.turn] : []));
    return branchTurns.slice(Math.max(0, branchTurns.indexOf(rewindTurn)));
  }, [rewindTurn, shownTurns]);
  /** The `/` menu's built-ins: what the palette does, from the box. */
  const slashCommands = [
    { name: "new", description: t("commands.new"), run: () => sessionActions.onNew() },
    { name: "compact", description: t("commands.compact"), run: () => (chat.sessionId ? void compact() : showToast(t("compact.noTurns"))) },
    { name: "model", description: t("commands.model"), run: () => setModelDialog(true) },
    { name: "help", description: t("commands.help"), run: () => setShortcuts(true) },
  ];
  const paletteItems: PaletteItem[] = [
    { id: "new-chat", label: t("actions.newChat"), group: "actions", run: () => sessionActions.onNew() },
    ...(chat.streaming ? [{ id: "stop", label: t("actions.stop"), group: "actions" as const, run: () => chat.stop() }] : []),
    { id: "shortcuts", label: t("shortcuts.title"), group: "actions", run: () => setShortcuts(true) },
    { id: "model", label: t("actions.model"), group: "actions", run: () => setModelDialog(true) },
    ...(models?.profiles ?? []).map((profile) => ({
      id: `use-model-${profile.name}`,
      label: t("actions.useModel", { name: profile.name, model: profile.model }),
      group: "actions" as const,
      run: () => void chat.chooseModel(profile.name, false).catch(failed),
    })),
    { id: "toggle-sidebar", label: t("actions.toggleSidebar"), group: "actions", run: () => paneToggles.current?.toggleSidebar() },
    { id: "toggle-inspector", label: t("actions.toggleInspector"), group: "actions", run: () => paneToggles.current?.toggleInspector() },
    { id: "theme-light", label: t("actions.themeLight"), group: "actions", run: () => theme.setPreference("light") },
    { id: "theme-dark", label: t("actions.themeDark"), group: "actions", run: () => theme.setPreference("dark") },
    { id: "theme-system", label: t("actions.themeSystem"), group: "actions", run: () => theme.setPreference("system") },
    ...Object.entries(LANGUAGES).map(([code, name]) => ({
      id: `language-${code}`,
      label: `${t("language.label")}: ${name}`,
      group: "actions" as const,
      run: () => setLanguage(code as Language),
    })),
    ...SIDEBAR_VIEWS.map((v) => ({
      id: `view-${v}`,
      label: t("actions.goTo", { view: t(`view.${v}`) }),
      group: "views" as const,
      run: () => onView(v),
    })),
    ...sessions.map((session) => ({ id: `session-${session.id}`, label: session.title, group: "sessions" as const, run: () => sessionActions.onOpen(session.id) })),
    ...(skills?.skills ?? []).map((skill) => ({
      id: `skill-${skill.name}`,
      label: `${skill.name}: ${skill.description}`,
      group: "skills" as const,
      run: () => openFile(skillPath(skill.location, health?.location_prefix ?? ".")),
    })),
    ...slashCommands.map((command) => ({ id: `command-${command.name}`, label: `/${command.name}: ${command.description}`, group: "actions" as const, run: command.run })),
  ];
  /** The words in any session's text: each hit opens its session at the turn, marked. */
  const searchSessions = useCallback(
    (q: string, signal: AbortSignal) =>
      api.searchSessions(q, signal).then((reply) =>
        reply.results.map((hit) => ({
          id: `session-${hit.id}`,
          label: hit.title,
          detail: hit.snippet,
          group: "found" as const,
          run: () => latestSessionActions.current.onOpen(hit.id, hit.turn > 0 ? { turn: hit.turn, query: q } : undefined),
        })),
      ),
    [latestSessionActions],
  );
  const title = chat.sessionId ? (sessions.find((s) => s.id === chat.sessionId)?.title ?? t("stage.session")) : t("stage.newSession");

  return (
    <div className="flex h-screen flex-col">
      {/* The page's one <title> (the layout names none): React keeps it in <head>, so a later hydration cannot put another before it. */}
      <title>{waiting.calls > 0 ? `(${waiting.calls}) ${PAGE_TITLE}` : PAGE_TITLE}</title>
      <TopBar health={health} onModel={() => setModelDialog(true)} />
      {/* Saved: the server's notice ("Model set: …") is the one toast, here and in every other tab. */}
      <ModelDialog open={modelDialog} onClose={() => setModelDialog(false)} onSaved={() => void queryClient.invalidateQueries({ queryKey: keys.health })} />
      <HealthBanner health={health} unreachable={unreachable} />
      <WorkbenchPanes
        toggles={paneToggles}
        showInspector={inspector.wanted}
        sidebar={(panes) => (
          <Sidebar
            view={view}
            onView={onView}
            sessions={sessions}
            currentSession={chat.sessionId}
            sessionActions={sessionActions}
            skills={skills}
            memoryFiles={files.filter((f) => f.group === "memory")}
            openPath={inspector.openPath}
            onOpenFile={openFile}
            locationPrefix={health?.location_prefix ?? "."}
            onSkillsChanged={refreshLists}
            onGo={(name, anchor) => showPage(name, anchor)}
            onToast={showToast}
            onCollapse={panes.collapse}
            unseenRuns={unseenRuns}
            waiting={waiting}
          />
        )}
        stage={
          <div className="relative h-full">
          {page && (
            <div className="absolute inset-0 z-10">
              <StagePage page={page} title={t(`view.${page.name}`)} onClose={() => setPage(null)}>
                {page.name === "tasks" && <TasksView sessions={sessions} onOpenSession={openRun} onOpenFile={openFile} />}
                {page.name === "knowledge" && <KnowledgeView onOpenAt={openAt} onToast={showToast} />}
                {page.name === "compare" && compareRuns && <CompareView runs={compareRuns} />}
                {page.name === "proposals" && <ProposalsView onOpenFile={openFile} onOpenTurn={(id, turn) => { setPage(null); sessionActions.onOpen(id, { turn, query: "" }); }} />}
                {page.name === "settings" && <SettingsPage sessionId={chat.sessionId} onOpenFile={openFile} onModelSaved={() => void queryClient.invalidateQueries({ queryKey: keys.health })} />}
              </StagePage>
            </div>
          )}
          {/* Laid out under a page, unseen: a turn streaming, the composer's draft and where the reader was stay. */}
          <div className={cn("h-full", page && "invisible")}>
          <CitationContext.Provider value={openAt}>
          <ChangeContext.Provider value={showChange}>
          <AttachmentContext.Provider value={showAttachment}>
          <BrowserCardContext.Provider value={browserCard}>
          <Stage turnActions={turnActions} highlight={highlight} sessionKey={chat.sessionId ?? "new"} title={title} turns={chat.turns} streaming={chat.streaming} loadError={chat.loadError} skills={skills?.skills ?? []} onSend={(text, attachments) => void chat.send(text, undefined, attachments)} onStop={chat.stop} onSteer={(text) => void chat.queueMessage(text, "steer").catch(failed)} queue={chat.queue} onRemoveQueued={(id) => void chat.removeQueued(id)} restored={chat.restored} onCompact={chat.sessionId ? compact : undefined} toolsOff={chat.toolsOff} onChatWithoutTools={chat.chatWithoutTools} usage={chat.usage} composerToolbar={<ModelPicker session={chat.model} once={chat.onceModel} onChoose={(name, once) => void chat.chooseModel(name, once).catch(failed)} />} commands={slashCommands} />
          </BrowserCardContext.Provider>
          </AttachmentContext.Provider>
          </ChangeContext.Provider>
          </CitationContext.Provider>
          </div>
          {chat.sessionId && (
            <ReplayDialog
              sessionId={chat.sessionId}
              turn={replayTurn}
              onClose={() => setReplayTurn(null)}
              onStarted={(runs) => {
                setReplayTurn(null);
                setCompareRuns(runs);
                showPage("compare");
                refreshLists();
              }}
            />
          )}
          {chat.sessionId && (
            <RewindDialog
              sessionId={chat.sessionId}
              turn={rewindTurn}
              turnsFrom={rewindFrom}
              onClose={() => setRewindTurn(null)}
              onDone={(reply) => {
                setRewindTurn(null);
                const put = reply.files.restored.length + reply.files.removed.length;
                const parts = [t("rewind.toast.done", { turn: reply.turn, count: put })];
                if (reply.files.skipped.length) parts.push(t("rewind.toast.skipped", { count: reply.files.skipped.length }));
                if (reply.files.untracked.length) parts.push(t("rewind.toast.untracked", { files: reply.files.untracked.join("; ") }));
                if (reply.conversation_leaf !== null) parts.push(t("rewind.toast.goesOn"));
                showToast(parts.join(t("common.listSeparator")));
                void queryClient.invalidateQueries({ queryKey: keys.allChanges });
                refreshLists();
                if (chat.sessionId) void chat.open(chat.sessionId);
              }}
            />
          )}
          </div>
        }
        inspector={(panes) => (
          <Inspector
            reveal={inspector.reveal}
            tab={inspector.tab}
            onTab={inspector.setTab}
            files={files}
            openPath={inspector.openPath}
            openCount={inspector.openCount}
            openAttachment={inspector.openAttachment}
            openPicture={inspector.openPicture}
            onOpenFile={openFile}
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: ["prompt"] });
              refreshLists();
            }}
            sessionId={chat.sessionId}
            diskChanges={diskChanges}
            openChange={inspector.openChange}
            onOpenChange={showChange}
            onReverted={(path) => {
              showToast(t("changes.toast.reverted", { path }));
              void queryClient.invalidateQueries({ queryKey: keys.allChanges });
              refreshLists();
            }}
            onCollapse={panes.collapse}
          />
        )}
      />
      <Toaster toasts={toasts.toasts} onDismiss={toasts.dismiss} />
      <CommandPalette open={palette} onClose={() => setPalette(false)} items={paletteItems} search={searchSessions} />
      <ShortcutsDialog open={shortcuts} onClose={() => setShortcuts(false)} />
      <TooltipLayer />
    </div>
  );
}
