"use client";
import type { ReplayRequest } from "@mini-openclaw/protocol";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { useModels } from "@/lib/server-state";
import { useTranslation } from "react-i18next";
import { DialogHeader } from "../ui/dialog-header";

interface ReplayDialogProps {
  sessionId: string;
  /** The turn to run again; null: closed. */
  turn: number | null;
  onClose: () => void;
  /** The replay started: the original run and the replay's, as `session:turn`. */
  onStarted: (runs: string) => void;
}

/** Run a turn again: on which profile, with which prompt, its tools from the record or live. */
export function ReplayDialog({ sessionId, turn, onClose, onStarted }: ReplayDialogProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const { data: models } = useModels();
  const [choice, setChoice] = useState<Required<Pick<ReplayRequest, "tools" | "prompt">> & { profile: string }>({ profile: "", tools: "recorded", prompt: "original" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (turn === null) return dialog.current?.close();
    dialog.current?.showModal();
    setError(null);
  }, [turn]);
  const start = () => {
    if (turn === null) return;
    setBusy(true);
    setError(null);
    const body: ReplayRequest = { tools: choice.tools, prompt: choice.prompt, ...(choice.profile ? { profile: choice.profile } : {}) };
    api.replay(sessionId, turn, body).then(
      (reply) => onStarted(`${sessionId}:${turn},${reply.session_id}:${reply.turn}`),
      (err: Error) => setError(err.message),
    ).finally(() => setBusy(false));
  };
  const radio = (key: "tools" | "prompt", value: string, label: string) => (
    <label className="flex items-start gap-2">
      <input type="radio" className="mt-0.5 accent-klein" name={`replay-${key}`} checked={choice[key] === value} onChange={() => setChoice({ ...choice, [key]: value })} data-testid={`replay-${key}-${value}`} />
      <span>{label}</span>
    </label>
  );
  return (
    <dialog ref={dialog} onClose={onClose} data-testid="replay-dialog" className="m-auto w-[480px] max-w-[95vw] rounded-xl border border-zinc-200 p-0 shadow-2xl backdrop:bg-zinc-900/30">
      <div className="space-y-3 p-5 text-sm">
        <DialogHeader title={t("replay.title", { turn: turn ?? 0 })} onClose={onClose} />
        <p className="text-xs leading-relaxed text-zinc-600">{t("replay.intro")}</p>
        <label className="flex items-center gap-2">
          {t("replay.profile")}
          <select className="rounded-md border border-zinc-200 px-2 py-1 text-[13px]" value={choice.profile} onChange={(e) => setChoice({ ...choice, profile: e.target.value })} data-testid="replay-profile">
            <option value="">{t("replay.sameProfile")}</option>
            {(models?.profiles ?? []).map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} ({p.model})
              </option>
            ))}
          </select>
        </label>
        <fieldset className="space-y-1">
          <legend className="text-xs font-medium text-zinc-600">{t("replay.tools.legend")}</legend>
          {radio("tools", "recorded", t("replay.tools.recorded"))}
          {radio("tools", "live", t("replay.tools.live"))}
        </fieldset>
        <fieldset className="space-y-1">
          <legend className="text-xs font-medium text-zinc-600">{t("replay.prompt.legend")}</legend>
          {radio("prompt", "original", t("replay.prompt.original"))}
          {radio("prompt", "today", t("replay.prompt.today"))}
        </fieldset>
        {error && <div className="text-xs text-red-700" data-testid="replay-error">{error}</div>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button disabled={busy} onClick={start} data-testid="replay-start">
            {t("replay.start")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
