"use client";
import { Command } from "lucide-react";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

export interface PaletteItem {
  id: string;
  label: string;
  group: "actions" | "views" | "sessions" | "skills" | "found";
  /** Shown under the label (where a search found the words). */
  detail?: string;
  run: () => void;
}

const MAX_SHOWN = 12;

/** Words of the query all in the label, in any order, case-insensitively. */
function matches(label: string, query: string): boolean {
  const text = label.toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

/**
 * Ctrl/⌘+K: one box to reach anything: a session by its title, a view, an action. A combobox in a
 * modal dialog (WAI-ARIA's pattern): type to filter, arrows to move, Enter to run, Esc to close.
 */
export function CommandPalette({ open, onClose, items, search }: { open: boolean; onClose: () => void; items: PaletteItem[]; search?: (query: string, signal: AbortSignal) => Promise<PaletteItem[]> }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  /** What a search of every session's text found for the query (after the titles, views and actions). */
  const [found, setFound] = useState<{ query: string; items: PaletteItem[] } | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!search || q.length < 2) return setFound(null);
    const abort = new AbortController();
    const timer = setTimeout(() => {
      search(q, abort.signal).then(
        (items) => setFound({ query: q, items }),
        () => {},
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, search]);

  useEffect(() => {
    if (!open) return dialog.current?.close();
    setQuery("");
    setActive(0);
    dialog.current?.showModal();
  }, [open]);

  const shown = useMemo(() => {
    const direct = items.filter((item) => matches(item.label, query));
    const more = found?.query === query.trim() ? found.items.filter((f) => !direct.some((d) => d.id === f.id)) : [];
    return [...direct.slice(0, MAX_SHOWN), ...more.slice(0, MAX_SHOWN)];
  }, [items, query, found]);
  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    item.run();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (shown.length ? (a + (e.key === "ArrowDown" ? 1 : shown.length - 1)) % shown.length : 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      run(shown[Math.min(active, shown.length - 1)]);
    }
  };

  return (
    <dialog ref={dialog} onClose={onClose} aria-label={t("palette.label")} data-testid="command-palette" className="mx-auto mt-[15vh] w-[560px] max-w-[95vw] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-900/30">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3">
        <Command className="size-4 text-zinc-500" aria-hidden />
        <input
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[active] ? `palette-${shown[active].id}` : undefined}
          aria-label={t("palette.searchLabel")}
          data-testid="palette-input"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={t("palette.placeholder")}
          className="h-11 flex-1 bg-transparent text-sm outline-none"
        />
      </div>
      <ul id="palette-list" role="listbox" aria-label={t("palette.results")} className="max-h-80 overflow-y-auto p-1">
        {shown.length === 0 && <li className="px-3 py-2 text-sm text-zinc-500">{t("palette.nothing")}</li>}
        {shown.map((item, i) => (
          <li
            key={item.id}
            id={`palette-${item.id}`}
            role="option"
            aria-selected={i === active}
            data-testid="palette-item"
            onMouseEnter={() => setActive(i)}
            onClick={() => run(item)}
            className={cn("flex cursor-pointer items-center justify-between rounded-md px-3 py-1.5 text-sm", i === active ? "bg-klein-50 text-klein" : "text-zinc-700")}
          >
            <span className="min-w-0">
              <span className="block truncate">{item.label}</span>
              {item.detail && <span className="block truncate text-[11.5px] text-zinc-500" data-testid="palette-detail">{item.detail}</span>}
            </span>
            <span className="ml-3 shrink-0 text-[11px] text-zinc-600">{t(`palette.group.${item.group}`)}</span>
          </li>
        ))}
      </ul>
    </dialog>
  );
}

/** The shortcuts, listed by `?` (outside a text field). */
export const SHORTCUTS = [
  { keys: "Ctrl/⌘ + K", what: "shortcuts.palette" },
  { keys: "Esc", what: "shortcuts.stop" },
  { keys: "Enter", what: "shortcuts.send" },
  { keys: "Shift + Enter", what: "shortcuts.newLine" },
  { keys: "/", what: "shortcuts.slash" },
  { keys: "Ctrl/⌘ + S", what: "shortcuts.save" },
  { keys: "?", what: "shortcuts.list" },
] as const;

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <dialog ref={dialog} onClose={onClose} aria-labelledby="shortcuts-title" data-testid="shortcuts" className="m-auto w-[440px] max-w-[95vw] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-2xl backdrop:bg-zinc-900/30">
      <h2 id="shortcuts-title" className="pb-3 text-[15px] font-semibold">
        {t("shortcuts.title")}
      </h2>
      <dl className="space-y-1.5 text-sm">
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className="flex gap-3">
            <dt className="w-28 shrink-0">
              <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-[12px]">{s.keys}</kbd>
            </dt>
            <dd className="text-zinc-600">{t(s.what)}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog" className="pt-4 text-right">
        <button className="rounded-md border border-zinc-200 px-3 py-1 text-sm hover:bg-zinc-50">{t("common.close")}</button>
      </form>
    </dialog>
  );
}
