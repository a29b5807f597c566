/**
 * A real Chromium (Debian's, through playwright-core) against the real backend serving the built UI.
 * Every request that leaves 127.0.0.1 is recorded and refused: the page must work offline.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumAvailable = existsSync(CHROMIUM);
export const chromiumRequired = process.env.CI === "true";
if (!chromiumAvailable) {
  console.warn(`\n!!! SKIPPING the browser tests: no Chromium at ${CHROMIUM}. Install it: apt-get install chromium !!!\n`);
}

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), "..", "test-results", "screenshots");

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export interface WatchedPage {
  page: Page;
  /** Requests to anything but 127.0.0.1 (refused). */
  external: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
  shot(name: string): Promise<void>;
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 1440, height: 900 },
  colorScheme: "light" | "dark" = "light",
  /** A touch screen (a coarse pointer, no hover). */
  touch = false,
  /** The browser's language (`navigator.languages`, Accept-Language). */
  locale = "en-US",
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, colorScheme, locale, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  const page = await context.newPage();
  const external: string[] = [];
  const errors: string[] = [];
  await page.route("**/*", (route) => {
    const { protocol, hostname } = new URL(route.request().url());
    if ((protocol === "http:" || protocol === "https:") && hostname !== "127.0.0.1") {
      external.push(route.request().url());
      return route.abort();
    }
    return route.continue();
  });
  // An element that never comes fails the step with its name, instead of the whole test timing out silently.
  page.setDefaultTimeout(20_000);
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(url);
  // Clicks before React has hydrated the page land on inert server-rendered markup and are lost.
  await page.waitForSelector("html[data-ready='true']");
  return {
    page,
    external,
    errors,
    async shot(name) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    },
  };
}
