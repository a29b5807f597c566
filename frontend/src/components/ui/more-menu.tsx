"use client";
import { MoreHorizontal } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";

/** One action of a row: shown as an icon (`ActionIcons`, with `tip`) where there is hover, as a named item (`MoreMenu`) where there is not. */
export interface MoreMenuItem {
  label: string;
  /** The icon's tooltip (default: the label). */
  tip?: string;
  /** The icon button's test id (the menu item's is `testId`). */
  buttonTestId?: string;
  icon: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  /** An item that is a download link (an export) rather than an action. */
  href?: string;
  testId?: string;
  danger?: boolean;
}

/**
 * "⋯": a row's actions as a menu, for screens without hover (touch) and narrow windows, where a row of
 * small icons is hard to hit. WAI-ARIA's menu button: Enter/Space/↓ open it, arrows move, Esc closes.
 */
/** `up`: opens above the button (a row at the bottom of a scrolled pane, where below is cut off). */
export function MoreMenu({ items, label, className, testId, up = false }: { items: MoreMenuItem[]; label?: string; className?: string; testId?: string; up?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const entries = useRef<Array<HTMLElement | null>>([]);
  const menu = useRef<HTMLDivElement>(null);
  /**
   * Where the open menu stands, fixed to the window beside its button (and drawn at the body's end, out of
   * the turn that contains its paint): it neither grows nor is cut off by the pane it is in. Above when
   * asked and there is room under the pane's top; else below. Measured once open (hidden until then); a
   * scroll closes it.
   */
  const [place, setPlace] = useState<{ right: number; top?: number; bottom?: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return setPlace(null);
    const rect = button.current.getBoundingClientRect();
    const right = window.innerWidth - rect.right;
    const room = rect.top - clipTop(button.current);
    setPlace(up && room >= menu.current.offsetHeight + 8 ? { right, bottom: window.innerHeight - rect.top + 4 } : { right, top: rect.bottom + 4 });
    const away = (e: Event) => !menu.current?.contains(e.target as Node) && setOpen(false);
    window.addEventListener("scroll", away, true);
    return () => window.removeEventListener("scroll", away, true);
  }, [open, up]);
  useEffect(() => {
    if (!open) return;
    entries.current.find((e) => e && !e.hasAttribute("disabled"))?.focus();
    const away = (e: PointerEvent) => !box.current?.contains(e.target as Node) && !menu.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  const onKeyDown = (e: KeyboardEvent) => {
    const list = entries.current.filter((el): el is HTMLElement => el !== null);
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      setOpen(false);
      button.current?.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      list[(at + (e.key === "ArrowDown" ? 1 : list.length - 1)) % list.length]?.focus();
    }
  };
  const close = () => setOpen(false);
  return (
    <div ref={box} className={cn("relative", className)} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-label={label ?? t("common.more")}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid={testId}
        onClick={() => setOpen(!open)}
        className="rounded p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700"
      >
        <MoreHorizontal className="size-4" />
      </button>
      {open &&
        createPortal(
        <div ref={menu} id={menuId} role="menu" style={place ?? undefined} className={cn("fixed z-50 min-w-44 rounded-lg border border-zinc-200 bg-white p-1 text-[13px] shadow-lg", !place && "invisible")} data-testid="more-menu">
          {items.map((item, i) => {
            const content = (
              <>
                <span className="size-4 shrink-0 text-zinc-500 [&>svg]:size-4">{item.icon}</span>
                {item.label}
              </>
            );
            const style = cn("flex w-full items-center gap-2 rounded-md px-2.5 py-2 text-left hover:bg-zinc-50 focus:bg-zinc-50 focus:outline-none disabled:opacity-40", item.danger ? "text-red-700" : "text-zinc-700");
            return item.href ? (
              <a key={item.label} ref={(el) => void (entries.current[i] = el)} role="menuitem" href={item.href} download className={style} data-testid={item.testId} onClick={close}>
                {content}
              </a>
            ) : (
              <button
                key={item.label}
                ref={(el) => void (entries.current[i] = el)}
                type="button"
                role="menuitem"
                disabled={item.disabled}
                className={style}
                data-testid={item.testId}
                onClick={() => {
                  close();
                  item.onSelect();
                }}
              >
                {content}
              </button>
            );
          })}
        </div>,
          document.body,
        )}
    </div>
  );
}

/** The same actions as a row of small icon buttons (where there is hover and room). */
export function ActionIcons({ items, className }: { items: MoreMenuItem[]; className: string }) {
  return items.map((item) => {
    const shared = { "data-tip": item.tip ?? item.label, "aria-label": item.label, "data-testid": item.buttonTestId, className: cn(className, "[&>svg]:size-3.5", item.danger && "hover:text-red-700") };
    return item.href ? (
      <a key={item.label} href={item.href} download {...shared}>
        {item.icon}
      </a>
    ) : (
      <button key={item.label} type="button" disabled={item.disabled} onClick={item.onSelect} {...shared}>
        {item.icon}
      </button>
    );
  });
}

/** Where the nearest ancestor that clips (scrolls or hides its overflow) begins, in the viewport. */
function clipTop(element: HTMLElement): number {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") return parent.getBoundingClientRect().top;
  }
  return 0;
}
