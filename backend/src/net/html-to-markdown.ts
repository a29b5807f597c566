import { createRequire } from "node:module";
import TurndownService from "turndown";

/** The few DOM operations used here (domino ships declarations that do not load as a module). */
interface DomNode {
  textContent: string | null;
  remove(): void;
}
interface DomDocument {
  body: DomNode | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode>;
}
const domino = createRequire(import.meta.url)("@mixmark-io/domino") as { createDocument(html: string): DomDocument };

/** Page chrome and non-content that never belongs in what the model reads. */
const NOISE = [
  "script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "form", "button",
  "input", "select", "textarea", "nav", "header", "footer", "aside", "[role=navigation]", "[role=banner]",
  "[role=contentinfo]", "[aria-hidden=true]", "[hidden]",
].join(",");

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });

export interface PageMarkdown {
  title: string;
  markdown: string;
}

/**
 * Clean Markdown from an HTML page: the main content (`main`, `article` or `[role=main]` when the
 * page marks one, else the body) without scripts, styles or navigation.
 */
export function htmlToMarkdown(html: string): PageMarkdown {
  const document = domino.createDocument(html);
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  for (const node of Array.from(document.querySelectorAll(NOISE))) node.remove();
  const main = document.querySelector("main, article, [role=main]") ?? document.body;
  const markdown = main ? turndown.turndown(main as unknown as TurndownService.Node) : "";
  return { title, markdown: markdown.replace(/\n{3,}/g, "\n\n").trim() };
}
