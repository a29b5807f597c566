/**
 * The sessions' browsers: one per session, started on its first `browser` call, closed after ten
 * idle minutes, when its turn is stopped, when the session is deleted and with the workbench. A
 * browser over its memory bound is closed, and the session's next call says so.
 */
import type { Lookup } from "../net/guarded-agent.js";
import { findBrowser } from "./find-browser.js";
import { BrowserSession } from "./browser-session.js";
import { ScreenshotStore } from "./screenshot-store.js";

export const BROWSER_IDLE_MS = 10 * 60 * 1000;
const MEMORY_CHECK_MS = 3000;

export interface BrowsersOptions {
  dataRoot: string;
  /** `BROWSER_PATH`, or null to look for the system's. */
  executablePath: string | null;
  memoryMb: number;
  loadTimeoutMs: number;
  /** As root: the unprivileged user the browsers run as; null to run them as this process. */
  runAs: number | null;
  allowlist: string[];
  lookup?: Lookup;
  log: { warn(obj: object, msg: string): void };
  onChange?: () => void;
}

export interface BrowserStatus {
  available: boolean;
  executable: string | null;
  memory_limit_mb: number;
  sessions: Array<{ session_id: string; tabs: number; memory_mb: number; started_at: number; idle_ms: number }>;
}

interface Entry {
  session: Promise<BrowserSession>;
  lastUsed: number;
  idle: NodeJS.Timeout;
}

export class Browsers {
  readonly screenshots: ScreenshotStore;
  readonly executable: string | null;
  private readonly entries = new Map<string, Entry>();
  /** Why a session's browser was closed behind its back, told at its next call. */
  private readonly closedNotes = new Map<string, string>();
  private readonly memoryTimer: NodeJS.Timeout;

  constructor(private readonly options: BrowsersOptions) {
    this.executable = findBrowser(options.executablePath);
    this.screenshots = new ScreenshotStore(options.dataRoot);
    this.memoryTimer = setInterval(() => this.checkMemory(), MEMORY_CHECK_MS).unref();
  }

  /** Whether `browser` can be offered: a Chromium-family browser is installed. */
  get available(): boolean {
    return this.executable !== null;
  }

  /** The session's browser, started if it is not running. */
  async open(sessionId: string): Promise<BrowserSession> {
    const entry = this.entries.get(sessionId);
    if (entry) {
      const session = await entry.session.catch(() => null);
      if (session && !session.isClosed) {
        this.touch(sessionId, entry);
        return session;
      }
      this.forget(sessionId);
    }
    if (!this.executable) throw new Error("no Chromium or Chrome is installed (set BROWSER_PATH)");
    const opening = BrowserSession.open({
      executablePath: this.executable,
      loadTimeoutMs: this.options.loadTimeoutMs,
      runAs: this.options.runAs,
      proxy: { allowlist: this.options.allowlist, lookup: this.options.lookup, connectTimeoutMs: 10_000 },
    });
    const fresh: Entry = { session: opening, lastUsed: Date.now(), idle: this.idleTimer(sessionId) };
    this.entries.set(sessionId, fresh);
    try {
      const session = await opening;
      this.options.onChange?.();
      return session;
    } catch (err) {
      this.forget(sessionId);
      throw err;
    }
  }

  /** A note for the session's next call about its browser being closed by the workbench, once. */
  takeClosedNote(sessionId: string): string | null {
    const note = this.closedNotes.get(sessionId) ?? null;
    this.closedNotes.delete(sessionId);
    return note;
  }

  /** The running browser of a session, if any (never starts one). */
  async running(sessionId: string): Promise<BrowserSession | null> {
    const session = await this.entries.get(sessionId)?.session.catch(() => null);
    return session && !session.isClosed ? session : null;
  }

  async close(sessionId: string, why?: string): Promise<void> {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.forget(sessionId);
    if (why) this.closedNotes.set(sessionId, why);
    const session = await entry.session.catch(() => null);
    await session?.close();
    this.options.onChange?.();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.memoryTimer);
    await Promise.all([...this.entries.keys()].map((id) => this.close(id)));
  }

  async status(): Promise<BrowserStatus> {
    const sessions: BrowserStatus["sessions"] = [];
    for (const [id, entry] of this.entries) {
      const session = await entry.session.catch(() => null);
      if (!session || session.isClosed) continue;
      sessions.push({ session_id: id, tabs: session.tabs().length, memory_mb: Math.round((await session.memoryBytes()) / (1024 * 1024)), started_at: session.startedAt, idle_ms: Date.now() - entry.lastUsed });
    }
    return { available: this.available, executable: this.executable, memory_limit_mb: this.options.memoryMb, sessions };
  }

  private touch(sessionId: string, entry: Entry) {
    entry.lastUsed = Date.now();
    clearTimeout(entry.idle);
    entry.idle = this.idleTimer(sessionId);
  }

  private idleTimer(sessionId: string): NodeJS.Timeout {
    return setTimeout(() => void this.close(sessionId, "The browser was closed after 10 idle minutes; it opened again, at a blank page."), BROWSER_IDLE_MS).unref();
  }

  private forget(sessionId: string) {
    const entry = this.entries.get(sessionId);
    if (entry) clearTimeout(entry.idle);
    this.entries.delete(sessionId);
  }

  private checking = false;

  private async checkMemory() {
    // One look at a time: a slow one is not stacked on by the next tick.
    if (this.checking) return;
    this.checking = true;
    try {
      await this.checkEach();
    } finally {
      this.checking = false;
    }
  }

  private async checkEach() {
    const limit = this.options.memoryMb * 1024 * 1024;
    for (const [id, entry] of this.entries) {
      const session = await entry.session.catch(() => null);
      if (!session || session.isClosed) continue;
      const used = await session.memoryBytes();
      if (used <= limit) continue;
      const mb = Math.round(used / (1024 * 1024));
      this.options.log.warn({ session: id, mb }, "browser over its memory bound: closed");
      await this.close(id, `The browser used ${mb} MB, over its ${this.options.memoryMb} MB bound, and was closed; it opened again, at a blank page.`);
    }
  }
}
