/**
 * The README's architecture table is the rule: a module under `backend/src/` imports from its own
 * layer and the layers below, never from one above, and no two folders import each other in a loop.
 * Imports are read with TypeScript's own pre-processor, the table with a Markdown parser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Tokens, lexer } from "marked";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const SRC = resolve(here, "..", "src");
const README = resolve(here, "..", "..", "README.md");

/** Layer by folder (or top-level file), from the README's "Architecture" table. */
function layersFromReadme(): Map<string, number> {
  const tokens = lexer(readFileSync(README, "utf8"));
  const start = tokens.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).depth === 2 && (t as Tokens.Heading).text === "Architecture");
  const table = tokens.slice(start).find((t) => t.type === "table") as Tokens.Table | undefined;
  if (start < 0 || !table) throw new Error("README.md has no Architecture section with a table");
  const layers = new Map<string, number>();
  for (const row of table.rows) {
    const layer = Number(row[0].text);
    for (const token of row[1].tokens) {
      if (token.type === "codespan") layers.set((token as Tokens.Codespan).text.replace(/\/$/, ""), layer);
    }
  }
  return layers;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** `http/routes/chat-routes.ts` → `http`; `app.ts` → `app.ts`. */
const unitOf = (file: string) => relative(SRC, file).split("/")[0];

function imports(): Array<{ from: string; to: string }> {
  return sourceFiles(SRC).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => ({ from: file, to: resolve(dirname(file), name) })),
  );
}

describe("the backend's layering", () => {
  const layers = layersFromReadme();
  const all = imports();

  it("places every folder in a layer of the README's table", () => {
    const units = [...new Set(sourceFiles(SRC).map(unitOf))];
    expect(units.filter((unit) => !layers.has(unit))).toEqual([]);
  });

  it("has no import from a layer above", () => {
    const upward = all
      .filter(({ from, to }) => unitOf(from) !== unitOf(to) && layers.get(unitOf(to))! > layers.get(unitOf(from))!)
      .map(({ from, to }) => `${relative(SRC, from)} → ${relative(SRC, to)}`);
    expect(upward).toEqual([]);
  });

  it("has no loop between folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of all) {
      if (unitOf(from) === unitOf(to)) continue;
      edges.set(unitOf(from), (edges.get(unitOf(from)) ?? new Set()).add(unitOf(to)));
    }
    const reaches = (start: string, goal: string, seen = new Set<string>()): boolean =>
      [...(edges.get(start) ?? [])].some((next) => next === goal || (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))));
    const loops = [...edges].flatMap(([unit, targets]) => [...targets].filter((target) => reaches(target, unit)).map((target) => `${unit} ↔ ${target}`));
    expect(loops).toEqual([]);
  });

  it("keeps the turn's core free of transport: turns/, agent/ and sessions/ never import http/", () => {
    const offending = all.filter(({ from, to }) => ["turns", "agent", "sessions"].includes(unitOf(from)) && unitOf(to) === "http");
    expect(offending).toEqual([]);
  });
});
