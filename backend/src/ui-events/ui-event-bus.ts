import type { ToastNotice, UiEvent } from "@mini-openclaw/protocol";
import { toastEvent } from "./notice-message.js";

/** Messages from the backend to every open UI (`GET /api/events`): toasts and refresh requests. */
export class UiEventBus {
  private readonly listeners = new Set<(event: UiEvent) => void>();

  /** `clean`: what every event passes through before a page gets it (the secret scrubber). */
  constructor(private readonly clean: (event: UiEvent) => UiEvent = (event) => event) {}

  subscribe(listener: (event: UiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: UiEvent): void {
    const cleaned = this.clean(event);
    for (const listener of this.listeners) listener(cleaned);
  }

  /** A toast: what happened as data (pages word it in their language) and in the server's words. */
  toast(notice: ToastNotice, level: "info" | "warning" = "info"): void {
    this.publish(toastEvent(notice, level));
  }
}
