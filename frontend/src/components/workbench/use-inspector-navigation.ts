"use client";
import type { Attachment } from "@mini-openclaw/protocol";
import { useCallback, useState } from "react";
import type { OpenChange } from "../inspector/change-diff";
import type { InspectorTab } from "../inspector/inspector";

/**
 * What the Inspector shows and how the rest of the page opens something in it: a file, a line of a
 * file (a cited passage), one call's change to a file, a message's attachment, a browser step's screenshot. Each opening bumps
 * `wanted`, so a collapsed Inspector expands to show it. A change belongs to the session it was opened
 * in: another session shows its own list, never the last one's diff.
 */
export function useInspectorNavigation(sessionId: string | null) {
  const [tab, setTab] = useState<InspectorTab>("files");
  const [wanted, setWanted] = useState(0);
  const [openPath, setOpenPath] = useState<string | null>("memory/MEMORY.md");
  /** Bumped by every opening of a file, so opening the open file again brings it to the front. */
  const [openCount, setOpenCount] = useState(0);
  /** A message's attachment, open in place of a file. */
  const [openAttachment, setOpenAttachment] = useState<Attachment | null>(null);
  /** A picture the Stage opened (a browser step's screenshot), in place of a file. */
  const [openPicture, setOpenPicture] = useState<{ src: string; title: string } | null>(null);
  /** A line of a file, scrolled to and marked. */
  const [reveal, setReveal] = useState<{ path: string; line: number; nonce: number } | null>(null);
  const [openedChange, setOpenChange] = useState<(OpenChange & { sessionId: string | null }) | null>(null);
  const openChange: OpenChange | null = openedChange && openedChange.sessionId === sessionId ? { change: openedChange.change, path: openedChange.path } : null;

  const show = useCallback((next: InspectorTab) => {
    setTab(next);
    setWanted((n) => n + 1);
  }, []);
  const openFile = useCallback((path: string) => {
    setOpenAttachment(null);
    setOpenPicture(null);
    setOpenPath(path);
    setOpenCount((n) => n + 1);
    show("files");
  }, [show]);
  const openAt = useCallback((path: string, line: number) => {
    setOpenAttachment(null);
    setOpenPicture(null);
    setOpenPath(path);
    setReveal({ path, line, nonce: Date.now() });
    show("files");
  }, [show]);
  const showChange = useCallback((change: string, path: string) => {
    setOpenChange({ change, path, sessionId });
    show("changes");
  }, [show, sessionId]);
  const showAttachment = useCallback((attachment: Attachment) => {
    setOpenAttachment(attachment);
    setOpenPicture(null);
    show("files");
  }, [show]);
  const showPicture = useCallback((src: string, title: string) => {
    setOpenAttachment(null);
    setOpenPicture({ src, title });
    show("files");
  }, [show]);

  return { tab, setTab, wanted, openPath, openCount, openAttachment, openPicture, reveal, openChange, openFile, openAt, showChange, showAttachment, showPicture };
}
