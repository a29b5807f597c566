"use client";
import { memo } from "react";
import ReactMarkdown from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

/**
 * The answer as Markdown, with GitHub tables and highlighted code. Raw HTML in the text is not
 * rendered. Only fenced blocks that name their language are highlighted: guessing the language
 * of every block costs seconds in long sessions.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown text-[14.5px] text-zinc-800">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
