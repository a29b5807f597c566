/**
 * One session's browser: a headless Chromium of its own, started behind the guarded proxy with a
 * throw-away profile outside the data root and an environment that holds none of the workbench's
 * secrets. It keeps its tabs within the limit, dismisses dialogs, refuses downloads, and remembers
 * each of these as a note for the next tool result.
 */
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { treeMemoryBytes } from "../lib/process-tree.js";
import { type BrowserHost, startBrowserHost } from "./browser-host-process.js";
import { BrowserProxy, type BrowserProxyOptions } from "./browser-proxy.js";

export const BROWSER_LIMITS = {
  maxTabs: 5,
  /** What one action (a click, an outline, a screenshot) may take before it is given up. */
  actionTimeoutMs: 10_000,
  viewport: { width: 1280, height: 800 },
  /** Bytes one response may bring in through the proxy (fetch_url's limit too). */
  maxResponseBytes: 5 * 1024 * 1024,
};

export interface BrowserSessionOptions {
  executablePath: string;
  proxy: Omit<BrowserProxyOptions, "maxBytes">;
  /** A page load's limit (30 s unless configured). */
  loadTimeoutMs: number;
  /** As root: the unprivileged user Chromium runs as (the tools' sandbox user); null to run as this process. */
  runAs: number | null;
}

export class BrowserSession {
  private notes: string[] = [];
  private current: Page | null = null;
  private closed = false;
  readonly startedAt = Date.now();

  private constructor(
    private readonly host: BrowserHost,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly proxy: BrowserProxy,
    private readonly profileDir: string,
    private readonly options: BrowserSessionOptions,
  ) {}

  static async open(options: BrowserSessionOptions): Promise<BrowserSession> {
    const proxy = await BrowserProxy.start({ ...options.proxy, maxBytes: BROWSER_LIMITS.maxResponseBytes });
    const profileDir = await mkdtemp(join(tmpdir(), "moc-browser-"));
    if (options.runAs !== null) await chown(profileDir, options.runAs, options.runAs);
    let host: BrowserHost | undefined;
    try {
      host = await startBrowserHost({
        executablePath: options.executablePath,
        headless: true,
        // Playwright routes loopback through the proxy too (it drops Chromium's implicit loopback bypass).
        proxy: { server: proxy.url },
        // Chromium's own pop-up blocker stays on: a page cannot open tabs without a click.
        ignoreDefaultArgs: ["--disable-popup-blocking"],
        args: [
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-quic",
          // Chromium's own calls home (sign-in, autofill, updates, safe browsing): none leave the machine.
          "--disable-extensions",
          "--disable-client-side-phishing-detection",
          "--disable-domain-reliability",
          "--no-pings",
          "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate,SafeBrowsing,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater",
          // WebRTC would otherwise reach out over UDP, around the proxy.
          "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
          "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        ],
        // None of the workbench's environment (its keys): only what Chromium needs to start.
        env: { PATH: "/usr/bin:/bin", HOME: profileDir, LANG: "C.UTF-8", TMPDIR: profileDir },
        downloadsPath: join(profileDir, "downloads"),
        tracesDir: join(profileDir, "traces"),
      }, options.runAs);
      const browser = await chromium.connect(host.ws);
      const context = await browser.newContext({ viewport: BROWSER_LIMITS.viewport, acceptDownloads: false, serviceWorkers: "block" });
      const session = new BrowserSession(host, browser, context, proxy, profileDir, options);
      context.on("page", (page) => session.adopt(page));
      await context.newPage();
      return session;
    } catch (err) {
      await host?.kill().catch(() => {});
      await proxy.close();
      await rm(profileDir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
  }

  get isClosed(): boolean {
    return this.closed || !this.browser.isConnected();
  }

  /** The tab actions go to (the newest, unless the agent switched). */
  page(): Page {
    const pages = this.context.pages();
    if (this.current && !this.current.isClosed()) return this.current;
    this.current = pages.at(-1) ?? null;
    if (!this.current) throw new Error("the browser has no tab open");
    return this.current;
  }

  tabs(): Page[] {
    return this.context.pages();
  }

  async newTab(): Promise<Page> {
    if (this.context.pages().length >= BROWSER_LIMITS.maxTabs) throw new Error(`${BROWSER_LIMITS.maxTabs} tabs are open, the limit: close one first`);
    return this.context.newPage();
  }

  switchTo(page: Page) {
    this.current = page;
  }

  get loadTimeoutMs(): number {
    return this.options.loadTimeoutMs;
  }

  /** Memory of Chromium's processes (their proportional shares, summed), in bytes. */
  memoryBytes(): Promise<number> {
    const pid = this.host.browserPid;
    return pid === null ? Promise.resolve(0) : treeMemoryBytes(pid);
  }

  /**
   * What happened beside the actions since the last call (dialogs, pop-ups, downloads, refused
   * requests; hosts that could not be reached when `failed`), and forgets it.
   */
  takeNotes(failed: boolean): string[] {
    const notes = [...new Set([...this.notes, ...this.proxy.takeNotes(failed)])];
    this.notes = [];
    return notes;
  }

  note(text: string) {
    if (this.notes.length < 20) this.notes.push(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // kill(), not close(): a page stuck in a script loop would hold a polite close up.
    await this.host.kill().catch(() => {});
    await this.proxy.close();
    await rm(this.profileDir, { recursive: true, force: true }).catch(() => {});
  }

  private adopt(page: Page) {
    page.setDefaultTimeout(BROWSER_LIMITS.actionTimeoutMs);
    page.setDefaultNavigationTimeout(this.options.loadTimeoutMs);
    if (this.context.pages().length > BROWSER_LIMITS.maxTabs) {
      this.note(`A page tried to open another tab (${page.url() || "a pop-up"}); closed: at most ${BROWSER_LIMITS.maxTabs} tabs.`);
      void page.close().catch(() => {});
      return;
    }
    // A pop-up the page opened becomes the tab actions go to, as a person's eyes would follow it.
    if (this.current) this.note(`A new tab opened${page.url() && page.url() !== "about:blank" ? ` at ${page.url()}` : ""}; actions now go to it (tabs lists them).`);
    this.current = page;
    page.on("dialog", (dialog) => {
      this.note(`The page showed a ${dialog.type()} dialog${dialog.message() ? ` saying "${dialog.message().slice(0, 300)}"` : ""}; it was dismissed.`);
      void dialog.dismiss().catch(() => {});
    });
    page.on("download", (download) => {
      this.note(`The page offered a download (${download.suggestedFilename().slice(0, 200)}); downloads are refused.`);
      void download.cancel().catch(() => {});
    });
    page.on("crash", () => this.note("The tab crashed (out of memory, or the page broke it); navigate again to go on."));
    page.on("close", () => {
      if (this.current === page) this.current = null;
    });
  }
}
