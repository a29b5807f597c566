/**
 * "Save to knowledge" on a browser step: the page as the session's browser has it now (after its
 * scripts ran), turned into Markdown with its URL and the date on top, written under knowledge/web/
 * where the knowledge base indexes it like any file the user adds.
 */
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { htmlToMarkdown } from "../net/html-to-markdown.js";
import type { BrowserSession } from "./browser-session.js";

export const SAVED_PAGES_DIR = "knowledge/web";

/** A file name from the page's host and path: the same page saved again replaces its earlier copy. */
export function savedPageName(url: URL): string {
  const words = `${url.hostname} ${url.pathname} ${url.search}`.toLowerCase().match(/[a-z0-9]+/g) ?? ["page"];
  return `${words.join("-").slice(0, 100).replace(/-+$/, "")}.md`;
}

export class PageNotOpenError extends Error {}

/** Writes the open tab showing `url` (or, failing that, the current tab if it shows it) into knowledge/web/. */
export async function savePage(session: BrowserSession, dataRoot: string, url: string, now = new Date()): Promise<{ path: string; chars: number }> {
  const page = session.tabs().find((tab) => tab.url() === url);
  if (!page) throw new PageNotOpenError(`no tab of this session's browser shows ${url} now; open it again, then save`);
  const html = await page.content();
  const { title, markdown } = htmlToMarkdown(html);
  const header = [`# ${title || url}`, "", `Source: <${url}>`, `Saved: ${now.toISOString().slice(0, 10)} (from the workbench's browser)`, "", "---", ""];
  const text = `${header.join("\n")}\n${markdown.trim()}\n`;
  const path = `${SAVED_PAGES_DIR}/${savedPageName(new URL(url))}`;
  await writeConfinedAtomic(dataRoot, path, text);
  return { path, chars: text.length };
}
