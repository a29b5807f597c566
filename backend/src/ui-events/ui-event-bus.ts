import type { UiEvent } from "@mini-openclaw/protocol";

/** Messages from the backend to every open UI (`GET /api/events`): toasts and refresh requests. */
export class UiEventBus {
  private readonly listeners = new Set<(event: UiEvent) => void>();

  subscribe(listener: (event: UiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: UiEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  toast(message: string, level: "info" | "warning" = "info"): void {
    this.publish({ type: "toast", message, level });
  }
}
