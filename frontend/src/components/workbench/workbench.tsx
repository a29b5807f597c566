"use client";
import { type Attachment, type UiEvent, uiEventSchema } from "@mini-openclaw/protocol";
import { notify } from "@/lib/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "@/lib/api";
import { skillPath } from "@/lib/skill-path";
import { keys, staleKeys, useFiles, useHealth, useModels, useSessions, useSkills } from "@/lib/server-state";
import { useChat } from "@/lib/use-chat";
import { HealthBanner } from "./health-banner";
import { Inspector, type InspectorTab } from "../inspector/inspector";
import { Sidebar, type SidebarView } from "../sidebar/sidebar";
import { Stage } from "../stage/stage";
import { ModelPicker } from "../stage/model-picker";
import { ModelDialog } from "../settings/model-dialog";
import { TopBar } from "./top-bar";
import { Toaster, useToasts } from "../ui/toaster";
import type { SessionActions } from "../sidebar/sessions-view";
import { CitationContext } from "../stage/markdown";
import { ChangeContext } from "../stage/changed-files";
import { AttachmentContext } from "../stage/attachment-chips";
import { RewindDialog } from "../stage/rewind-dialog";
import { CommandPalette, type PaletteItem, ShortcutsDialog } from "./command-palette";
import type { OpenChange } from "../inspector/change-diff";
import type { TurnActions } from "../stage/turn-controls";
import { type PaneToggles, WorkbenchPanes } from "./workbench-panes";
import { TooltipLayer } from "../ui/tooltip-layer";
import { useTheme } from "@/lib/theme";
import { useTranslation } from "react-i18next";
import { i18n, type Language, LANGUAGES } from "@/i18n/language";
import { useLanguage } from "@/i18n/language-provider";
import { toastText } from "@/i18n/server-messages";

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
  const skills = useSkills().data ?? null;
  const files = useFiles().data ?? [];
  const [view, setView] = useState<SidebarView>("chat");
  const [tab, setTab] = useState<InspectorTab>("files");
  /** Bumped whenever something is opened in the Inspector: a collapsed Inspector expands to show it. */
  const [inspectorWanted, setInspectorWanted] = useState(0);
  const wantInspector = useCallback(() => setInspectorWanted((n) => n + 1), []);
  const [openPath, setOpenPath] = useState<string | null>("memory/MEMORY.md");
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
  const { noticeTurn, setQueue } = chat;
  const toasts = useToasts();
  const showToast = toasts.show;
  /** Runs that notified since the Tasks view was last open (its badge). */
  const [unseenRuns, setUnseenRuns] = useState(0);
  const viewRef = useRef(view);
  viewRef.current = view;
  /** A scheduled run ended or waits for approval: a toast in this tab, a browser notification if allowed, the badge. */
  const taskRunRef = useRef((_event: Extract<UiEvent, { type: "task_run" }>) => {});
  taskRunRef.current = ({ task_name: name, run, waiting_approval: waiting }) => {
    const text = waiting
      ? i18n.t("tasks.toast.waiting", { name })
      : run.outcome === "failed"
        ? i18n.t("tasks.toast.failed", { name, detail: run.detail ?? i18n.t("tasks.toast.seeSession") })
        : i18n.t("tasks.toast.finished", { name, detail: (run.detail ?? "").slice(0, 120) });
    const open = run.session_id ? () => void openSession(run.session_id!) : undefined;
    showToast(text, waiting || run.outcome === "failed" ? "warning" : "info", open ? { label: i18n.t("common.open"), run: open } : undefined);
    notify(`Mini-OpenClaw: ${name}`, text, `${run.id}${waiting ? ":approval" : ""}`, open);
    if (viewRef.current !== "tasks") setUnseenRuns((n) => n + 1);
  };
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

  // What changes on the server (the agent's tools, another editor, another tab) reaches the UI
  // without a reload, and without polling: each event makes what it concerns stale.
  useEffect(() => {
    const source = new EventSource("/api/events");
    let missed = false;
    source.onerror = () => {
      missed = true;
    };
    source.onopen = () => {
      // Back after a drop: events may have gone by meanwhile, so everything is read again once.
      if (missed) void queryClient.invalidateQueries();
      missed = false;
    };
    source.onmessage = (message) => {
      const parsed = uiEventSchema.safeParse(JSON.parse(message.data as string));
      if (!parsed.success) return;
      const event = parsed.data;
      for (const key of staleKeys(event)) void queryClient.invalidateQueries({ queryKey: key });
      if (event.type === "turn" && event.running) noticeTurn(event.session_id);
      else if (event.type === "queue") setQueue(event.session_id, event.items);
      else if (event.type === "review") setReviewed({ sessionId: event.session_id, at: Date.now() });
      else if (event.type === "file_changed") setDiskChanges((d) => ({ ...d, [event.path]: (d[event.path] ?? 0) + 1 }));
      else if (event.type === "toast") showToast(toastText(event.message, event.notice), event.level);
      else if (event.type === "task_run" && event.notify) taskRunRef.current(event);
    };
    return () => source.close();
  }, [queryClient, showToast, noticeTurn, setQueue]);

  /** A message's attachment, open in the Inspector in place of a file. */
  const [openAttachment, setOpenAttachment] = useState<Attachment | null>(null);
  const showAttachment = useCallback((attachment: Attachment) => {
    setOpenAttachment(attachment);
    setTab("files");
    wantInspector();
  }, [wantInspector]);
  const [openCount, setOpenCount] = useState(0);
  const openFile = (path: string) => {
    setOpenAttachment(null);
    setOpenPath(path);
    setOpenCount((n) => n + 1);
    setTab("files");
    wantInspector();
  };
  /** A line of a file, scrolled to and marked in the Inspector (a cited knowledge passage). */
  const [reveal, setReveal] = useState<{ path: string; line: number; nonce: number } | null>(null);
  const openAt = useCallback((path: string, line: number) => {
    setOpenAttachment(null);
    setOpenPath(path);
    setTab("files");
    setReveal({ path, line, nonce: Date.now() });
    wantInspector();
  }, [wantInspector]);
  /** One file of one call's changes, open as a diff in the Inspector. */
  const [openChange, setOpenChange] = useState<OpenChange | null>(null);
  const showChange = useCallback((change: string, path: string) => {
    setOpenChange({ change, path });
    setTab("changes");
    wantInspector();
  }, [wantInspector]);
  const theme = useTheme();
  const paneToggles = useRef<PaneToggles | null>(null);
  const [palette, setPalette] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  // Ctrl/⌘+K anywhere opens the palette; `?` outside a text field lists the shortcuts.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setPalette(true);
        return;
      }
      const target = e.target as HTMLElement | null;
      const typing = target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest(".monaco-editor"));
      if (e.key === "?" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        setShortcuts(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  /** The turn a Rewind was asked for (its dialog is open). */
  const [rewindTurn, setRewindTurn] = useState<number | null>(null);
  const onView = (next: SidebarView) => {
    setView(next);
    if (next === "tasks") setUnseenRuns(0);
    if (next === "memory") openFile("memory/MEMORY.md");
  };

  /** A search result opened: the Stage shows and marks that turn. */
  const [highlight, setHighlight] = useState<{ turn: number; query: string; nonce: number } | null>(null);
  const failed = (err: unknown) => showToast((err as Error).message, "warning");
  const failedRef = useRef(failed);
  failedRef.current = failed;
  const sessionActionsRef = useRef<SessionActions | null>(null);
  const sessionActions: SessionActions = {
    onOpen: (id, at) => {
      setHighlight(at ? { ...at, nonce: Date.now() } : null);
      void chat.open(id).then((onBranch) => {
        // A search hit on another branch: show that branch.
        if (at && onBranch && !onBranch.includes(at.turn)) void chat.switchBranch(at.turn);
      });
    },
    onNew: () => {
      setHighlight(null);
      chat.reset();
    },
    onRename: (id, title) => void api.updateSession(id, { title }).then(refreshLists, failed),
    onPin: (id, pinned) => void api.updateSession(id, { pinned }).then(refreshLists, failed),
    onDelete: (session) =>
      void api.deleteSession(session.id).then(({ trash }) => {
        if (chat.sessionId === session.id) chat.reset();
        refreshLists();
        showToast(i18n.t("sessions.toast.deleted", { title: session.title }), "info", {
          label: i18n.t("common.undo"),
          run: () => void api.restoreSession(session.id, trash).then(refreshLists, failed),
        });
      }, failed),
    onImport: (file) =>
      void file
        .text()
        .then((text) => api.importSession(JSON.parse(text)))
        .then((summary) => {
          refreshLists();
          void chat.open(summary.id);
          showToast(i18n.t("sessions.toast.imported", { title: summary.title }));
        }, (err: Error) => failed(err instanceof SyntaxError ? new Error(i18n.t("sessions.toast.notJson", { name: file.name, detail: err.message })) : err)),
  };
  sessionActionsRef.current = sessionActions;

  const { send, switchBranch, saveEdit, open, sessionId } = chat;
  const turnActions = useMemo<TurnActions>(
    () => ({
      send: (text, parentTurn) => void send(text, parentTurn),
      save: (turn, text) => void saveEdit(turn, text).catch(failedRef.current),
      switchTo: (turn) => void switchBranch(turn).catch(failedRef.current),
      rewind: (turn) => setRewindTurn(turn),
      fork: (turn) => {
        if (!sessionId) return;
        void api.forkSession(sessionId, turn).then((summary) => {
          refreshLists();
          void open(summary.id);
          showToast(i18n.t("sessions.toast.forked", { title: summary.title }));
        }, failedRef.current);
      },
    }),
    [send, switchBranch, saveEdit, open, sessionId, refreshLists, showToast],
  );

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
    ...(["chat", "tasks", "memory", "skills", "knowledge", "agents", "approvals", "mcp"] as SidebarView[]).map((v) => ({
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
          run: () => sessionActionsRef.current?.onOpen(hit.id, hit.turn > 0 ? { turn: hit.turn, query: q } : undefined),
        })),
      ),
    [],
  );
  const title = chat.sessionId ? (sessions.find((s) => s.id === chat.sessionId)?.title ?? t("stage.session")) : t("stage.newSession");

  return (
    <div className="flex h-screen flex-col">
      <TopBar health={health} onModel={() => setModelDialog(true)} />
      <ModelDialog open={modelDialog} onClose={() => setModelDialog(false)} onSaved={(keyFile) => {
          showToast(t("model.savedTo", { file: keyFile }));
          void queryClient.invalidateQueries({ queryKey: keys.health });
        }} />
      <HealthBanner health={health} unreachable={unreachable} />
      <WorkbenchPanes
        toggles={paneToggles}
        showInspector={inspectorWanted}
        sidebar={(panes) => (
          <Sidebar
            view={view}
            onView={onView}
            sessions={sessions}
            currentSession={chat.sessionId}
            sessionActions={sessionActions}
            skills={skills}
            memoryFiles={files.filter((f) => f.group === "memory")}
            openPath={openPath}
            onOpenFile={openFile}
            locationPrefix={health?.location_prefix ?? "."}
            onSkillsChanged={refreshLists}
            onOpenAt={openAt}
            onToast={showToast}
            onCollapse={panes.collapse}
            unseenRuns={unseenRuns}
          />
        )}
        stage={
          <>
          <CitationContext.Provider value={openAt}>
          <ChangeContext.Provider value={showChange}>
          <AttachmentContext.Provider value={showAttachment}>
          <Stage turnActions={turnActions} highlight={highlight} sessionKey={chat.sessionId ?? "new"} title={title} turns={chat.turns} streaming={chat.streaming} loadError={chat.loadError} skills={skills?.skills ?? []} onSend={(text, attachments) => void chat.send(text, undefined, attachments)} onStop={chat.stop} onSteer={(text) => void chat.queueMessage(text, "steer").catch(failed)} queue={chat.queue} onRemoveQueued={(id) => void chat.removeQueued(id)} restored={chat.restored} onCompact={chat.sessionId ? compact : undefined} toolsOff={chat.toolsOff} onChatWithoutTools={chat.chatWithoutTools} usage={chat.usage} composerToolbar={<ModelPicker session={chat.model} once={chat.onceModel} onChoose={(name, once) => void chat.chooseModel(name, once).catch(failed)} />} commands={slashCommands} />
          </AttachmentContext.Provider>
          </ChangeContext.Provider>
          </CitationContext.Provider>
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
          </>
        }
        inspector={(panes) => (
          <Inspector
            reveal={reveal}
            tab={tab}
            onTab={setTab}
            files={files}
            openPath={openPath}
            openCount={openCount}
            openAttachment={openAttachment}
            onOpenFile={openFile}
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: ["prompt"] });
              refreshLists();
            }}
            sessionId={chat.sessionId}
            diskChanges={diskChanges}
            openChange={openChange}
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
