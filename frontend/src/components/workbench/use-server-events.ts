"use client";
import { type QueueItem, type UiEvent, uiEventSchema } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { staleKeys } from "@/lib/server-state";

/** What the page does with the events that concern more than the server state it lists. */
export interface ServerEventHandlers {
  /** A turn started in a session (another tab, a queued follow-up, a task). */
  turnStarted: (sessionId: string) => void;
  queueChanged: (sessionId: string, items: QueueItem[]) => void;
  reviewed: (sessionId: string) => void;
  fileChanged: (path: string) => void;
  toast: (event: Extract<UiEvent, { type: "toast" }>) => void;
  /** A scheduled run that asks to be told (it ended, or waits for approval). */
  taskRun: (event: Extract<UiEvent, { type: "task_run" }>) => void;
}

/**
 * What changes on the server (the agent's tools, another editor, another tab) reaches the UI
 * without a reload, and without polling: `/api/events`, each event making what it concerns stale.
 * The handlers are read when an event comes, so they may change at every render.
 */
export function useServerEvents(handlers: ServerEventHandlers) {
  const queryClient = useQueryClient();
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const source = new EventSource("/api/events");
    let opened = false;
    let missed = false;
    source.onerror = () => {
      missed = true;
    };
    source.onopen = () => {
      // Back after a drop: events may have gone by meanwhile, so everything is read again once.
      if (missed) void queryClient.invalidateQueries();
      // First open: what was read (or asked) before the stream listened may have changed unseen in between
      // (a turn this page started at once, on a slow machine); that is read again, once.
      else if (!opened) void queryClient.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt > 0 || query.state.fetchStatus === "fetching" });
      opened = true;
      missed = false;
    };
    source.onmessage = (message) => {
      const parsed = uiEventSchema.safeParse(JSON.parse(message.data as string));
      if (!parsed.success) return;
      const event = parsed.data;
      const on = latest.current;
      for (const key of staleKeys(event)) void queryClient.invalidateQueries({ queryKey: key });
      if (event.type === "turn" && event.running) on.turnStarted(event.session_id);
      else if (event.type === "queue") on.queueChanged(event.session_id, event.items);
      else if (event.type === "review") on.reviewed(event.session_id);
      else if (event.type === "file_changed") on.fileChanged(event.path);
      else if (event.type === "toast") on.toast(event);
      else if (event.type === "task_run" && event.notify) on.taskRun(event);
    };
    return () => source.close();
  }, [queryClient]);
}
