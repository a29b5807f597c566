"use client";
import { useEffect, useId, useRef, useState } from "react";

/**
 * The tooltips of the whole page, in one layer: any element with `data-tip` shows its text in a
 * `role="tooltip"` bubble on hover or keyboard focus (after a short delay, as native ones do), tied to
 * it with `aria-describedby` while shown, and gone on Esc, blur or leave. Native `title` attributes are
 * not used: they never show on focus, are unreadable on touch, and cannot be styled.
 */
export function TooltipLayer() {
  const id = useId();
  const [tip, setTip] = useState<{ text: string; x: number; y: number; below: boolean } | null>(null);
  const target = useRef<HTMLElement | null>(null);
  const timer = useRef<number | null>(null);

  useEffect(() => {
    const hide = () => {
      if (timer.current) window.clearTimeout(timer.current);
      if (target.current?.getAttribute("aria-describedby") === id) target.current.removeAttribute("aria-describedby");
      target.current = null;
      setTip(null);
    };
    const show = (el: HTMLElement, delay: number) => {
      const text = el.dataset.tip;
      if (!text || el === target.current) return;
      hide();
      target.current = el;
      timer.current = window.setTimeout(() => {
        const rect = el.getBoundingClientRect();
        const below = rect.top < 48;
        setTip({ text, x: Math.min(Math.max(rect.left + rect.width / 2, 160), window.innerWidth - 160), y: below ? rect.bottom + 6 : rect.top - 6, below });
        if (!el.hasAttribute("aria-describedby")) el.setAttribute("aria-describedby", id);
      }, delay);
    };
    const over = (e: Event) => {
      const el = (e.target as HTMLElement | null)?.closest?.<HTMLElement>("[data-tip]");
      if (el) show(el, 500);
      else if (e.type === "pointerover") hide();
    };
    const focus = (e: FocusEvent) => {
      const el = (e.target as HTMLElement | null)?.closest?.<HTMLElement>("[data-tip]");
      if (el && el.matches(":focus-visible")) show(el, 0);
    };
    const key = (e: KeyboardEvent) => e.key === "Escape" && hide();
    document.addEventListener("pointerover", over);
    document.addEventListener("focusin", focus);
    document.addEventListener("focusout", hide);
    document.addEventListener("pointerdown", hide);
    document.addEventListener("keydown", key);
    window.addEventListener("scroll", hide, true);
    return () => {
      document.removeEventListener("pointerover", over);
      document.removeEventListener("focusin", focus);
      document.removeEventListener("focusout", hide);
      document.removeEventListener("pointerdown", hide);
      document.removeEventListener("keydown", key);
      window.removeEventListener("scroll", hide, true);
    };
  }, [id]);

  if (!tip) return null;
  return (
    <div
      id={id}
      role="tooltip"
      data-testid="tooltip"
      style={{ left: tip.x, top: tip.y, transform: `translate(-50%, ${tip.below ? "0" : "-100%"})` }}
      className="pointer-events-none fixed z-50 max-w-[300px] rounded-md bg-zinc-900 px-2 py-1 text-[12px] leading-snug text-white shadow-lg"
    >
      {tip.text}
    </div>
  );
}
