/**
 * What the `browser` tool's actions do to a session's browser, and what each brings back: the page
 * as an accessibility outline with numbered references (Playwright's "ai" snapshot, the format
 * Playwright MCP sends), its URL and title, a screenshot for the card, and the notes of what
 * happened beside the action (dialogs, pop-ups, refused requests).
 */
import type { Page } from "playwright-core";
import { z } from "zod";
import { BROWSER_LIMITS, type BrowserSession } from "./browser-session.js";

export const BROWSER_ACTIONS = ["navigate", "snapshot", "click", "type", "select", "press", "scroll", "back", "wait_for", "screenshot", "tabs"] as const;

export const browserInputSchema = z.object({
  action: z.enum(BROWSER_ACTIONS).describe(
    "navigate (url), snapshot (the page's outline), click / type / select (ref from the latest outline), press (key, optionally on ref), " +
      "scroll (direction, or ref to bring into view), back, wait_for (text, or seconds), screenshot, tabs (op: list, new, switch, close; tab).",
  ),
  url: z.string().max(4000).optional().describe("navigate: an http:// or https:// URL. tabs new: where the new tab goes."),
  ref: z.string().max(20).optional().describe('An element\'s reference from the latest outline, as "e12".'),
  text: z.string().max(10_000).optional().describe("type: the text to enter (it replaces the field's). wait_for: text to wait for."),
  submit: z.boolean().optional().describe("type: press Enter after typing."),
  values: z.array(z.string().max(500)).max(50).optional().describe("select: the options to choose, by value or label."),
  key: z.string().max(40).optional().describe('press: a key as Playwright names it ("Enter", "Tab", "ArrowDown", "Control+A").'),
  direction: z.enum(["down", "up"]).optional().describe("scroll: which way, about a screen (down by default)."),
  seconds: z.number().min(0).max(30).optional().describe("wait_for: how long to wait (for the text, at most; or just this long)."),
  op: z.enum(["list", "new", "switch", "close"]).optional().describe("tabs: what to do (list by default)."),
  tab: z.number().int().min(0).max(50).optional().describe("tabs switch / close: the tab's number in the list."),
});
export type BrowserInput = z.infer<typeof browserInputSchema>;

/** The outline's length limit, in characters (about 6,000 tokens); the cut is said to the model. */
export const OUTLINE_MAX_CHARS = 24_000;

export interface ActionOutcome {
  /** What the action did, in a sentence, when it is more than "done". */
  said: string;
  /** The tab list, for `tabs`. */
  tabs?: string;
}

/** A refusal or failure the model can act on, without the page. */
export class BrowserActionError extends Error {}

const needs = <T>(value: T | undefined, what: string, action: string): T => {
  if (value === undefined || value === "") throw new BrowserActionError(`${action} needs ${what}.`);
  return value;
};

/** A URL the browser may be sent to: http or https, no credentials in it. */
export function webUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BrowserActionError(`"${text.slice(0, 200)}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BrowserActionError(`only http and https pages can be opened (got ${url.protocol}); the browser reads no local files.`);
  if (url.username || url.password) throw new BrowserActionError("URLs with credentials are refused.");
  return url;
}

const isTimeout = (err: unknown) => (err as Error)?.name === "TimeoutError";

/** Playwright's error, in the words the model needs: what failed and what to do. */
function explain(err: unknown, input: BrowserInput): string {
  const message = ((err as Error)?.message ?? String(err)).split("\n")[0];
  if (input.ref && /ref|not found|resolve|strict mode|waiting for/i.test(message) && !isTimeout(err)) {
    return `${input.ref} is not on the page's latest outline (the page changed, or the reference is mistyped); take a snapshot and use a reference from it.`;
  }
  if (isTimeout(err)) return `${input.action}${input.ref ? ` on ${input.ref}` : ""} did not finish within ${BROWSER_LIMITS.actionTimeoutMs / 1000} s (the element may be hidden, disabled or covered).`;
  return message.replace(/^(locator|page|frame)\.\w+: /, "").slice(0, 500);
}

/** Gives a page that started navigating (a click on a link, a submit) a moment to arrive. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("domcontentloaded", { timeout: 5000 }).catch(() => {});
}

/** Past this much text a page's outline would be megabytes to carry and parse: its text's start is given instead. */
const OUTLINE_TEXT_LIMIT = 2_000_000;

/** The page's outline, cut at OUTLINE_MAX_CHARS on a line boundary (a huge page: the start of its text, said so). */
export async function pageOutline(page: Page): Promise<{ text: string; chars: number; cut: boolean }> {
  // Strings, not functions: this runs in the page, and the server is compiled without the DOM's types.
  const size = Number(await page.evaluate("document.documentElement ? document.documentElement.textContent.length : 0"));
  if (size > OUTLINE_TEXT_LIMIT) {
    const start = String(await page.evaluate(`(document.body || document.documentElement).innerText.slice(0, ${OUTLINE_MAX_CHARS})`));
    return { text: `(the page holds ${size} characters of text, too many for an outline; the start of its text follows)\n${start}`, chars: size, cut: true };
  }
  // The timeout is how long a frame that never answers (an iframe the browser refused) is waited for: it is left out after.
  const full = await page.ariaSnapshot({ mode: "ai", timeout: 2000 });
  if (full.length <= OUTLINE_MAX_CHARS) return { text: full, chars: full.length, cut: false };
  const end = full.lastIndexOf("\n", OUTLINE_MAX_CHARS);
  return { text: full.slice(0, end > 0 ? end : OUTLINE_MAX_CHARS), chars: full.length, cut: true };
}

async function tabList(session: BrowserSession): Promise<string> {
  const current = session.page();
  const lines = await Promise.all(
    session.tabs().map(async (page, i) => `${i}. ${(await page.title().catch(() => "")) || "(no title)"} — ${page.url()}${page === current ? "  (current)" : ""}`),
  );
  return lines.join("\n");
}

/** Runs one action; a failure the model can fix is a BrowserActionError with the reason. */
export async function runAction(session: BrowserSession, input: BrowserInput): Promise<ActionOutcome> {
  const page = session.page();
  const target = () => page.getByRef(needs(input.ref, "ref (from the latest outline)", input.action));
  try {
    switch (input.action) {
      case "navigate": {
        const url = webUrl(needs(input.url, "url", "navigate"));
        try {
          await page.goto(url.href, { waitUntil: "domcontentloaded", timeout: session.loadTimeoutMs });
        } catch (err) {
          if (!isTimeout(err)) throw err;
          return { said: `The page did not finish loading within ${Math.round(session.loadTimeoutMs / 1000)} s; what had loaded is shown.` };
        }
        await page.waitForLoadState("load", { timeout: 3000 }).catch(() => {});
        return { said: "" };
      }
      case "snapshot":
      case "screenshot":
        return { said: "" };
      case "click":
        await target().click();
        await settle(page);
        return { said: `Clicked ${input.ref}.` };
      case "type":
        await target().fill(input.text ?? "");
        if (input.submit) {
          await target().press("Enter");
          await settle(page);
        }
        return { said: `Typed ${(input.text ?? "").length} characters into ${input.ref}${input.submit ? " and pressed Enter" : ""}.` };
      case "select": {
        const chosen = await target().selectOption(needs(input.values, "values", "select"));
        return { said: `Selected ${chosen.join(", ") || "nothing"} in ${input.ref}.` };
      }
      case "press": {
        const key = needs(input.key, "key", "press");
        if (input.ref) await target().press(key);
        else await page.keyboard.press(key);
        await settle(page);
        return { said: `Pressed ${key}${input.ref ? ` on ${input.ref}` : ""}.` };
      }
      case "scroll":
        if (input.ref) await target().scrollIntoViewIfNeeded();
        else await page.mouse.wheel(0, (input.direction === "up" ? -1 : 1) * BROWSER_LIMITS.viewport.height * 0.8);
        return { said: input.ref ? `Scrolled ${input.ref} into view.` : `Scrolled ${input.direction ?? "down"}.` };
      case "back": {
        const response = await page.goBack({ waitUntil: "domcontentloaded", timeout: session.loadTimeoutMs });
        return { said: response === null && page.url() === "about:blank" ? "There was no page to go back to." : "Went back." };
      }
      case "wait_for": {
        const seconds = input.seconds ?? (input.text ? 10 : 1);
        if (input.text) {
          try {
            await page.getByText(input.text).first().waitFor({ state: "visible", timeout: seconds * 1000 });
          } catch (err) {
            if (!isTimeout(err)) throw err;
            return { said: `"${input.text.slice(0, 200)}" did not appear within ${seconds} s.` };
          }
          return { said: `"${input.text.slice(0, 200)}" is on the page.` };
        }
        await page.waitForTimeout(seconds * 1000);
        return { said: `Waited ${seconds} s.` };
      }
      case "tabs":
        return await tabsAction(session, input);
    }
  } catch (err) {
    if (err instanceof BrowserActionError) throw err;
    throw new BrowserActionError(explain(err, input));
  }
}

async function tabsAction(session: BrowserSession, input: BrowserInput): Promise<ActionOutcome> {
  const op = input.op ?? "list";
  if (op === "list") return { said: "", tabs: await tabList(session) };
  if (op === "new") {
    const page = await session.newTab();
    session.switchTo(page);
    if (input.url) await page.goto(webUrl(input.url).href, { waitUntil: "domcontentloaded", timeout: session.loadTimeoutMs });
    return { said: "Opened a new tab.", tabs: await tabList(session) };
  }
  const index = needs(input.tab, "tab (its number in the list)", `tabs ${op}`);
  const page = session.tabs()[index];
  if (!page) throw new BrowserActionError(`there is no tab ${index}; ${session.tabs().length} are open (tabs list shows them).`);
  if (op === "switch") {
    session.switchTo(page);
    await page.bringToFront();
    return { said: `Switched to tab ${index}.`, tabs: await tabList(session) };
  }
  if (session.tabs().length === 1) throw new BrowserActionError("that is the only tab; navigate it elsewhere instead.");
  await page.close();
  return { said: `Closed tab ${index}.`, tabs: await tabList(session) };
}
