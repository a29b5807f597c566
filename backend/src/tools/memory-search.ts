import { z } from "zod";
import type { Embedder } from "../knowledge/embedders.js";
import type { MemoryIndex } from "../memory/memory-index.js";
import { type CoreTool, defineTool } from "./core-tool.js";

const schema = z.object({
  query: z.string().min(1).describe("What to recall, in words (a question or key terms)."),
  k: z.number().int().min(1).max(20).optional().describe("How many passages to return (default 5)."),
});

/** `memory_search`: the agent's memory (MEMORY.md and every daily log), passages with their file and line. */
export const memorySearchTool = ({ memory, embedder }: { memory: MemoryIndex; embedder: Embedder | null }): CoreTool<typeof schema> =>
  defineTool({
    name: "memory_search",
    description:
      "Search your memory: memory/MEMORY.md and every daily log in memory/logs/ (YYYY-MM-DD.md). Returns the best passages " +
      "with their file and line, e.g. memory/logs/2026-01-15.md:5; cite them that way. Use it to recall facts, decisions " +
      "and requests from earlier days that are not in this prompt.",
    schema,
    async execute(input) {
      const { hits, files, mode, leftOut } = await memory.search(input.query, input.k ?? 5, embedder);
      const note = leftOut ? `\n\n[${leftOut}]` : "";
      if (hits.length === 0) return { ok: true, output: `No passage of your memory (${files} ${files === 1 ? "file" : "files"}) matched.${note}`, details: { files, mode, results: 0 } };
      const passages = hits.map((hit, i) => `[${i + 1}] ${hit.path}:${hit.line} score ${hit.score}\n${hit.text}`);
      return { ok: true, output: passages.join("\n\n") + note, details: { files, mode, results: hits.map(({ text: _text, ...rest }) => rest), ...(leftOut ? { left_out: leftOut } : {}) } };
    },
  });
