"use client";
import { useEffect, useRef } from "react";
import { DialogHeader } from "../ui/dialog-header";
import { ModelSettings } from "./model-settings";
import { useTranslation } from "react-i18next";

/** The model settings over the page (the top bar's Model, `/model`): saved, the dialog closes. */
export function ModelDialog({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      data-testid="model-dialog"
      className="m-auto w-[520px] max-w-[95vw] rounded-xl border border-zinc-200 p-0 shadow-2xl backdrop:bg-zinc-900/30"
    >
      <div className="px-5 pt-5">
        <DialogHeader title={t("model.title")} onClose={onClose} />
      </div>
      {/* Mounted while open: each opening reads the settings afresh, with nothing typed before. */}
      {open && (
        <ModelSettings
          onSaved={() => {
            onSaved();
            onClose();
          }}
        />
      )}
    </dialog>
  );
}
