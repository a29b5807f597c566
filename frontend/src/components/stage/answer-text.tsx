"use client";
import { memo, useMemo } from "react";
import { splitAnswer } from "@/lib/mind-map";
import { Markdown } from "./markdown";
import { MindMap } from "./mind-map";

/** The agent's text: Markdown, with any `mindmap` blocks in it drawn as mind maps. */
export const AnswerText = memo(function AnswerText({ text }: { text: string }) {
  const parts = useMemo(() => splitAnswer(text), [text]);
  return parts.map((part, i) => (part.kind === "mindmap" ? <MindMap key={i} source={part.source} /> : <Markdown key={i} text={part.text} />));
});
