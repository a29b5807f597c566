"use client";
import { type Attachment, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from "@mini-openclaw/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { uploadAttachment } from "./upload";
import { formatBytes } from "@/i18n/format";
import { i18n } from "@/i18n/language";

/** A file on its way into a message: uploading (with progress), stored, or refused with the server's words. */
export interface PendingFile {
  key: string;
  name: string;
  size: number;
  progress: number;
  attachment?: Attachment;
  error?: string;
  /** An object URL of an image, for its thumbnail while it uploads. */
  preview?: string;
}

/** Why a file cannot go with the message (the server's limits), or null. */
function limitProblem(file: File, already: number): string | null {
  if (file.size === 0) return i18n.t("composer.emptyFile");
  if (file.size > MAX_ATTACHMENT_BYTES) return i18n.t("composer.overLimit", { limit: formatBytes(MAX_ATTACHMENT_BYTES), size: formatBytes(file.size) });
  if (already >= MAX_ATTACHMENTS) return i18n.t("composer.tooManyFiles", { count: MAX_ATTACHMENTS });
  return null;
}

/** The composer's attachments: each file uploads as soon as it is added; removed ones are forgotten. */
export function useAttachments() {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const counter = useRef(0);
  const update = (key: string, patch: Partial<PendingFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  // The files a message already has (refused ones do not count), for the limit on one message.
  const taken = useRef(0);
  taken.current = files.filter((f) => !f.error).length;

  const add = useCallback((list: Iterable<File>) => {
    for (const file of list) {
      const key = `f${++counter.current}`;
      const name = file.name || "pasted";
      // What the server would refuse is refused here, before any byte is sent.
      const refused = limitProblem(file, taken.current);
      if (refused) {
        setFiles((all) => [...all, { key, name, size: file.size, progress: 0, error: refused }]);
        continue;
      }
      taken.current++;
      const preview = file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined;
      setFiles((all) => [...all, { key, name, size: file.size, progress: 0, preview }]);
      uploadAttachment(file, file.name || "pasted", (progress) => update(key, { progress })).then(
        (attachment) => update(key, { attachment, progress: 1 }),
        (err: Error) => update(key, { error: err.message }),
      );
    }
  }, []);

  const remove = useCallback((key: string) => {
    setFiles((all) => {
      const gone = all.find((f) => f.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return all.filter((f) => f.key !== key);
    });
  }, []);

  const clear = useCallback(() => {
    setFiles((all) => {
      for (const f of all) if (f.preview) URL.revokeObjectURL(f.preview);
      return [];
    });
  }, []);

  // Object URLs are let go with the page's composer.
  const latest = useRef(files);
  latest.current = files;
  useEffect(() => () => latest.current.forEach((f) => f.preview && URL.revokeObjectURL(f.preview)), []);

  return {
    files,
    add,
    remove,
    clear,
    uploading: files.some((f) => !f.attachment && !f.error),
    attachments: files.flatMap((f) => (f.attachment ? [f.attachment] : [])),
  };
}

export type Attachments = ReturnType<typeof useAttachments>;
