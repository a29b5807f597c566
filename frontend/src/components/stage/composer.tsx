"use client";
import { type Attachment, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, type QueueItem, type SkillInfo } from "@mini-openclaw/protocol";
import { ArrowUp, CornerDownRight, ListPlus, Paperclip, Pencil, Sparkles, Square, SquareSlash, X } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { Attachments } from "@/lib/use-attachments";
import { cn } from "@/lib/utils";
import { formatBytes, formatNumber } from "@/i18n/format";
import { useTranslation } from "react-i18next";

interface ComposerProps {
  /** The files going with the message (the Stage holds them: a drop anywhere on it adds one). */
  files: Attachments;
  streaming: boolean;
  disabled?: boolean;
  skills: SkillInfo[];
  /** Sends (with the files attached); while a turn runs, queues a follow-up. */
  onSend: (text: string, attachments: Attachment[]) => void;
  /** While a turn runs: hands the message to it at its next step. */
  onSteer?: (text: string) => void;
  onStop: () => void;
  /** Messages waiting behind the running turn. */
  queue?: QueueItem[];
  onRemoveQueued?: (id: string) => void;
  /** Text to put back in the box (Stop handed the queue back); a new object each time. */
  restored?: { text: string } | null;
  /** Controls under the box (the model picker). */
  toolbar?: ReactNode;
  /** The built-in commands the `/` menu lists before the skills (/new, /compact, /model, /help). */
  commands?: SlashCommand[];
}

/** A built-in command of the `/` menu: run in the page, never sent to the model. */
export interface SlashCommand {
  name: string;
  description: string;
  run: () => void;
}

/**
 * Enter sends, Shift+Enter adds a line. While a turn runs, Enter queues a follow-up (it runs when the
 * turn ends), Steer hands the message to the running turn, and the queue shows under the box (edit
 * puts a message back here, x removes it); Stop ends the turn and gives the queue back. Typing `/`
 * lists the skills: arrows move, Tab or Enter picks, Escape closes.
 */
export function Composer({ files, streaming, disabled, skills, onSend, onSteer, onStop, queue = [], onRemoveQueued, restored, toolbar, commands = [] }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (restored) setText((current) => (current.trim() ? `${restored.text}\n\n${current}` : restored.text));
  }, [restored]);
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const slash = /^\/([A-Za-z0-9_.-]*)$/.exec(text);
  // Built-in commands first, then the skills (a skill of a built-in's name is reached by the rest of its name).
  const matches: Array<{ kind: "command"; command: SlashCommand } | { kind: "skill"; skill: SkillInfo }> =
    slash && !dismissed
      ? [
          ...commands.filter((c) => c.name.startsWith(slash[1])).map((command) => ({ kind: "command" as const, command })),
          ...skills.filter((s) => s.name.startsWith(slash[1]) && !commands.some((c) => c.name === s.name)).map((skill) => ({ kind: "skill" as const, skill })),
        ]
      : [];
  const runCommand = (command: SlashCommand) => {
    setText("");
    setHighlight(0);
    command.run();
  };
  const pick = (match: (typeof matches)[number]) => {
    if (match.kind === "command") return runCommand(match.command);
    setText(`/${match.skill.name} `);
    setHighlight(0);
  };
  const send = (steer = false) => {
    const message = text.trim();
    // A built-in typed whole runs here; it is never sent.
    const command = commands.find((c) => `/${c.name}` === message);
    if (command) return runCommand(command);
    if (!message || disabled || files.uploading) return;
    if (steer && onSteer) onSteer(message);
    else onSend(message, files.attachments);
    setText("");
    if (!steer) files.clear();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setHighlight((h) => (h + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey)) {
        e.preventDefault();
        pick(matches[Math.min(highlight, matches.length - 1)]);
        return;
      }
      if (e.key === "Escape") {
        setDismissed(true);
        return;
      }
    }
    // Esc stops a streaming answer (as in ChatGPT and Claude); the text being typed stays.
    if (e.key === "Escape" && streaming && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onStop();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <div className="relative border-t border-zinc-200/80 bg-white p-3">
      {matches.length > 0 && (
        <div role="listbox" data-testid="slash-menu" className="absolute bottom-full left-3 right-3 mb-1 overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-lg">
          <div className="border-b border-zinc-100 px-3 py-1.5 text-[11px] font-medium uppercase tracking-wide text-zinc-500">{t("composer.commandsAndSkills")}</div>
          {matches.slice(0, 10).map((match, i) => {
            const [name, description] = match.kind === "command" ? [match.command.name, match.command.description] : [match.skill.name, match.skill.description];
            return (
              <button
                key={`${match.kind}:${name}`}
                type="button"
                role="option"
                aria-selected={i === highlight}
                data-testid="slash-option"
                data-kind={match.kind}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(match);
                }}
                className={cn("flex w-full items-start gap-2 px-3 py-2 text-left", i === highlight ? "bg-klein-50" : "hover:bg-zinc-50")}
              >
                {match.kind === "command" ? <SquareSlash className="mt-0.5 size-3.5 shrink-0 text-zinc-500" /> : <Sparkles className="mt-0.5 size-3.5 shrink-0 text-klein" />}
                <span className="min-w-0">
                  <span className="font-mono text-[13px] font-semibold text-zinc-800">/{name}</span>
                  <span className="block truncate text-xs text-zinc-500">{description}</span>
                </span>
              </button>
            );
          })}
        </div>
      )}
      {files.files.length > 0 && (
        <ul data-testid="attachment-chips" className="mb-1.5 flex flex-wrap gap-1.5">
          {files.files.map((f) => (
            <li
              key={f.key}
              data-testid="attachment-chip"
              data-state={f.error ? "failed" : f.attachment ? "ready" : "uploading"}
              className={cn("flex max-w-[240px] items-center gap-1.5 rounded-lg border bg-white px-1.5 py-1 text-[12px]", f.error ? "border-red-300 text-red-700" : "border-zinc-200 text-zinc-700")}
            >
              {f.preview ? <img src={f.preview} alt="" className="size-8 shrink-0 rounded object-cover" /> : <Paperclip className="size-3.5 shrink-0 text-zinc-500" />}
              <span className="min-w-0">
                <span className="block truncate font-medium">{f.name}</span>
                <span className="block text-[10.5px] text-zinc-500">
                  {f.error ? f.error.slice(0, 120) : f.attachment ? formatBytes(f.size) : t("composer.progress", { percent: formatNumber(f.progress, { style: "percent" }), size: formatBytes(f.size) })}
                </span>
                {!f.attachment && !f.error && (
                  <span className="mt-0.5 block h-0.5 w-full overflow-hidden rounded bg-zinc-100" data-testid="attachment-progress">
                    <span className="block h-full bg-klein" style={{ width: `${Math.round(f.progress * 100)}%` }} />
                  </span>
                )}
              </span>
              <button type="button" aria-label={t("composer.removeFile", { name: f.name })} data-testid="attachment-remove" className="rounded p-0.5 text-zinc-500 hover:bg-zinc-100" onClick={() => files.remove(f.key)}>
                <X className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div
        className="flex items-end gap-2 rounded-xl border border-zinc-200 bg-white p-2 shadow-sm focus-within:border-klein/50 focus-within:ring-2 focus-within:ring-klein/10"
        data-testid="composer-box"
      >
        <textarea
          data-testid="composer"
          aria-label={t("composer.message")}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setDismissed(false);
          }}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            // Images and files from the clipboard are attached; text pastes as text.
            if (e.clipboardData.files.length === 0) return;
            e.preventDefault();
            files.add(e.clipboardData.files);
          }}
          rows={Math.min(8, Math.max(1, text.split("\n").length))}
          placeholder={streaming ? t("composer.placeholderStreaming") : t("composer.placeholder")}
          className="max-h-48 min-h-[36px] flex-1 resize-none bg-transparent px-1.5 py-1.5 text-[14.5px] outline-none placeholder:text-zinc-400"
        />
        {streaming && onSteer && (
          <>
            <Button variant="ghost" size="sm" onClick={() => send(true)} disabled={!text.trim()} data-testid="steer" data-tip={t("composer.steerTip")}>
              <CornerDownRight /> {t("composer.steer")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => send(false)} disabled={!text.trim()} data-testid="follow-up" data-tip={t("composer.followUpTip")}>
              <ListPlus /> {t("composer.followUp")}
            </Button>
          </>
        )}
        {streaming ? (
          <Button variant="danger" size="icon" onClick={onStop} aria-label={t("composer.stop")} data-testid="stop">
            <Square className="fill-current" />
          </Button>
        ) : (
          <Button size="icon" onClick={() => send(false)} disabled={!text.trim() || disabled || files.uploading} aria-label={t("composer.send")} data-testid="send">
            <ArrowUp />
          </Button>
        )}
      </div>
      <div className="mt-1.5 flex items-center gap-2 px-1">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(e) => {
            if (e.target.files) files.add(e.target.files);
            e.target.value = "";
          }}
        />
        <button
          type="button"
          aria-label={t("composer.attachFiles")}
          data-testid="attach"
          data-tip={t("composer.attachTip", { count: MAX_ATTACHMENTS, size: formatBytes(MAX_ATTACHMENT_BYTES) })}
          className="flex items-center gap-1 rounded px-1 py-0.5 text-[11.5px] text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700"
          onClick={() => picker.current?.click()}
        >
          <Paperclip className="size-3.5" /> {t("composer.attach")}
        </button>
        {toolbar}
      </div>
      {queue.length > 0 && (
        <ul data-testid="queue" aria-label={t("composer.queued")} className="mt-2 space-y-1">
          {queue.map((item) => (
            <li key={item.id} data-testid="queue-item" data-mode={item.mode} className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-2.5 py-1 text-[13px] text-zinc-700">
              <span className="shrink-0 text-[10.5px] font-medium uppercase tracking-wide text-zinc-500">{item.mode === "steer" ? t("composer.queueSteer") : t("composer.queueNext")}</span>
              <span className="min-w-0 flex-1 truncate">{item.message}</span>
              <button
                type="button"
                aria-label={t("composer.editQueued", { message: item.message.slice(0, 40) })}
                data-testid="queue-edit"
                className="rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-700"
                onClick={() => {
                  onRemoveQueued?.(item.id);
                  setText((current) => (current.trim() ? `${current}\n\n${item.message}` : item.message));
                }}
              >
                <Pencil className="size-3.5" />
              </button>
              <button
                type="button"
                aria-label={t("composer.removeQueued", { message: item.message.slice(0, 40) })}
                data-testid="queue-remove"
                className="rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-700"
                onClick={() => onRemoveQueued?.(item.id)}
              >
                <X className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
