"use client";
import { ImageOff } from "lucide-react";
import { type ComponentProps, createContext, memo, useContext, useRef } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CopyButton } from "@/components/ui/copy-button";
import { linkCitations, parseCiteHref } from "@/lib/citations";
import { urlHost, urlPlace } from "@/lib/url-origin";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** What a click on a cited knowledge passage does (the workbench opens it in the Inspector at its line). */
export const CitationContext = createContext<((path: string, line: number) => void) | null>(null);

const pageOrigin = () => (typeof window === "undefined" ? "http://127.0.0.1" : window.location.origin);

/** An image from another origin is never fetched by itself: it becomes a link the user may open. */
function SafeImage({ src, alt }: ComponentProps<"img">) {
  const url = typeof src === "string" ? src : undefined;
  const place = urlPlace(url, pageOrigin());
  const { t } = useTranslation();
  if (place === "same-origin" || place === "inline") return <img src={url} alt={alt ?? ""} />;
  if (place === "invalid") return <span className="text-zinc-500">{t("markdown.invalidImage", { alt: alt || t("markdown.invalidAddress") })}</span>;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="remote-image inline-flex items-center gap-1 rounded border border-dashed border-zinc-300 px-1.5 py-0.5 text-[13px] text-zinc-600"
      data-tip={t("common.notLoaded", { detail: url })}
      data-remote-image=""
    >
      <ImageOff className="h-3.5 w-3.5" aria-hidden />
      {alt ? `${alt}: ` : ""}
      {t("markdown.loadImage", { host: urlHost(url!) })}
    </a>
  );
}

const NEW_TAB = { target: "_blank", rel: "noopener noreferrer" } as const;

/** Links to other origins open in a new tab that cannot reach back into this one. */
function SafeLink({ href, children, node: _node, ...rest }: ComponentProps<"a"> & { node?: unknown }) {
  const openCitation = useContext(CitationContext);
  const { t } = useTranslation();
  const cite = parseCiteHref(href);
  if (cite) {
    return (
      <button
        type="button"
        data-testid="citation"
        data-path={cite.path}
        data-line={cite.line}
        onClick={() => openCitation?.(cite.path, cite.line)}
        className="cursor-pointer font-mono text-[0.92em] text-klein underline decoration-dotted underline-offset-2 hover:decoration-solid"
        data-tip={t("markdown.openCitation", { path: cite.path, line: cite.line })}
      >
        {children}
      </button>
    );
  }
  const external = urlPlace(href, pageOrigin()) === "external";
  return (
    <a href={href} {...rest} {...(external ? NEW_TAB : {})}>
      {children}
    </a>
  );
}

/** A code block with a Copy button (its text as shown, without the highlighting). */
function CodeBlock({ children, node: _node, ...rest }: ComponentProps<"pre"> & { node?: unknown }) {
  const pre = useRef<HTMLPreElement>(null);
  const { t } = useTranslation();
  return (
    <div className="group/code relative">
      {/* The button has a line of its own above the code, so it never covers the end of a long line. */}
      <pre ref={pre} {...rest} className={cn(rest.className, "pt-8")}>
        {children}
      </pre>
      <CopyButton text={() => pre.current?.innerText ?? ""} label={t("markdown.copyCode")} testId="copy-code" className="absolute right-1 top-1 bg-white/80 opacity-70 group-hover/code:opacity-100" />
    </div>
  );
}

const components: Components = { img: SafeImage, a: SafeLink, pre: CodeBlock };

/**
 * The answer as Markdown, with GitHub tables and highlighted code. Raw HTML in the text is not
 * rendered; remote images are not fetched. Only fenced blocks that name their language are
 * highlighted: guessing the language of every block costs seconds in long sessions.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown text-[14.5px] text-zinc-800">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]} components={components}>
        {linkCitations(text)}
      </ReactMarkdown>
    </div>
  );
});
