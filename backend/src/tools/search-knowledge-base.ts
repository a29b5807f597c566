import { z } from "zod";
import type { KnowledgeBase } from "../knowledge/knowledge-base.js";
import { pageWord } from "../knowledge/document-kinds.js";
import { type CoreTool, defineTool } from "./core-tool.js";

const TEXT_CHARS = 1500;

const schema = z.object({
  query: z.string().min(1).describe("What to look for, in words (a question or key terms)."),
  k: z.number().int().min(1).max(20).optional().describe("How many passages to return (default 5)."),
});

/** `search_knowledge_base`: hybrid search over the user's documents. */
export const searchKnowledgeBaseTool = ({ knowledge }: { knowledge: Pick<KnowledgeBase, "search"> }): CoreTool<typeof schema> =>
  defineTool({
  name: "search_knowledge_base",
  description:
    "Search the user's documents under knowledge/ (Markdown, text, PDF, Word, PowerPoint, Excel, CSV, EPUB, HTML) with " +
    "hybrid retrieval (BM25 keyword search fused with vector search). Returns the best passages with their source path " +
    "and line (page for a PDF, slide for PowerPoint); cite a passage as `knowledge/path (line N)` or `(page N)` when you " +
    "use it. New and changed documents are picked up automatically.",
  schema,
  async execute(input) {
    const reply = await knowledge.search(input.query, input.k ?? 5);
    const indexing = reply.indexing ? ". Documents are being indexed right now: these results are from those indexed so far; search again shortly for the rest" : "";
    const header = `Mode: ${reply.mode === "hybrid" ? `hybrid (BM25 + ${reply.embedder})` : "BM25 only"}${reply.note ? `. Note: ${reply.note}` : ""}${indexing}`;
    if (reply.results.length === 0) {
      return { ok: true, output: `${header}\nNo passages matched. The knowledge/ folder may be empty or hold nothing on this.`, details: { mode: reply.mode, results: 0 } };
    }
    const passages = reply.results.map((hit, i) => {
      const text = hit.text.length > TEXT_CHARS ? `${hit.text.slice(0, TEXT_CHARS)} …` : hit.text;
      return `[${i + 1}] ${hit.source} (chunk ${hit.chunk}, ${pageWord(hit.source) ?? "line"} ${hit.line}) score ${hit.score}\n${text}`;
    });
    return {
      ok: true,
      output: `${header}\n\n${passages.join("\n\n")}`,
      details: { mode: reply.mode, results: reply.results.map(({ text: _text, ...rest }) => rest) },
    };
  },
  });
