import { describe, expect, it } from "vitest";
import { chunkText } from "./chunk-text.js";

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("chunkText", () => {
  it("keeps short text whole, on its first non-blank line", () => {
    expect(chunkText("\n\nOne short note.\n")).toEqual([{ index: 0, line: 3, text: "One short note." }]);
    expect(chunkText("   \n  ")).toEqual([]);
  });

  it("cuts long prose at paragraph and sentence ends, within the size, with overlap, losing no word", () => {
    const paragraphs = Array.from({ length: 40 }, (_, p) =>
      Array.from({ length: 12 }, (_, s) => `Paragraph ${p} sentence ${s} says something about brine.`).join(" "),
    );
    const text = paragraphs.join("\n\n");
    const chunks = chunkText(text, 1, { size: 800, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(800);
      expect(chunk.text).toMatch(/[.]$/); // ends at a sentence or paragraph end
    }
    const seen = new Set(chunks.flatMap((c) => words(c.text)));
    for (const word of words(text)) expect(seen.has(word)).toBe(true);
    // Neighbours share their edge: the overlap.
    for (let i = 1; i < chunks.length; i++) {
      const tail = words(chunks[i - 1].text).slice(-3).join(" ");
      expect(chunks[i].text.includes(tail) || chunks[i].text.startsWith("Paragraph")).toBe(true);
    }
  });

  it("gives each chunk the line it starts on", () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line${i + 1} ${"word ".repeat(10)}`);
    for (const chunk of chunkText(lines.join("\n"), 1, { size: 300, overlap: 30 })) {
      const first = /line(\d+)/.exec(chunk.text);
      if (first && chunk.text.startsWith("line")) expect(chunk.line).toBe(Number(first[1]));
    }
  });

  it("always moves on, even through text with no break at all", () => {
    const chunks = chunkText("x".repeat(10_000), 1, { size: 1000, overlap: 100 });
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    expect(chunks.every((c) => c.text.length <= 1000)).toBe(true);
  });
});
