/**
 * The README's architecture tables are the rule: a module under `backend/src/` (first table) or
 * `frontend/src/` (second table) imports from its own layer and the layers below, never from one
 * above, and no two folders import each other in a loop. Imports are read with TypeScript's own
 * pre-processor, the tables with a Markdown parser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Tokens, lexer } from "marked";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const SRC = resolve(here, "..", "src");
const FRONTEND_SRC = resolve(here, "..", "..", "frontend", "src");
const README = resolve(here, "..", "..", "README.md");

/** Layer by folder (or top-level file), from the README's Architecture section's tables (0: the backend's, 1: the UI's). */
function layersFromReadme(which: 0 | 1): Map<string, number> {
  const tokens = lexer(readFileSync(README, "utf8"));
  const start = tokens.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).depth === 2 && (t as Tokens.Heading).text === "Architecture");
  const end = tokens.findIndex((t, i) => i > start && t.type === "heading" && (t as Tokens.Heading).depth === 2);
  const table = tokens.slice(start, end < 0 ? undefined : end).filter((t) => t.type === "table")[which] as Tokens.Table | undefined;
  if (start < 0 || !table) throw new Error(`README.md's Architecture section has no table ${which + 1}`);
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
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

interface Tree {
  src: string;
  layers: Map<string, number>;
  /** The folder (or top-level file) a file belongs to, as the table names it. */
  unitOf: (file: string) => string;
  /** The file an import names, or null for a package. */
  target: (from: string, name: string) => string | null;
}

function imports(tree: Tree): Array<{ from: string; to: string }> {
  return sourceFiles(tree.src).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.flatMap((i) => {
        const to = tree.target(file, i.fileName);
        return to ? [{ from: file, to }] : [];
      }),
  );
}

/** Imports from a layer above, and folders that import each other (directly or round a loop). */
function violations(tree: Tree): { upward: string[]; loops: string[] } {
  const all = imports(tree);
  const { layers, unitOf } = tree;
  const upward = all
    .filter(({ from, to }) => unitOf(from) !== unitOf(to) && layers.get(unitOf(to))! > layers.get(unitOf(from))!)
    .map(({ from, to }) => `${relative(tree.src, from)} → ${relative(tree.src, to)}`);
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    if (unitOf(from) === unitOf(to)) continue;
    edges.set(unitOf(from), (edges.get(unitOf(from)) ?? new Set()).add(unitOf(to)));
  }
  const reaches = (start: string, goal: string, seen = new Set<string>()): boolean =>
    [...(edges.get(start) ?? [])].some((next) => next === goal || (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))));
  const loops = [...edges].flatMap(([unit, targets]) => [...targets].filter((target) => reaches(target, unit)).map((target) => `${unit} ↔ ${target}`));
  return { upward, loops };
}

const relativeImport = (from: string, name: string) => (name.startsWith(".") ? resolve(dirname(from), name) : null);

const backend: Tree = {
  src: SRC,
  layers: layersFromReadme(0),
  /** `http/routes/chat-routes.ts` → `http`; `app.ts` → `app.ts`. */
  unitOf: (file) => relative(SRC, file).split("/")[0],
  target: relativeImport,
};

const frontend: Tree = {
  src: FRONTEND_SRC,
  layers: layersFromReadme(1),
  /** `components/stage/stage.tsx` → `components/stage`; `lib/api.ts` → `lib`. */
  unitOf: (file) => {
    const parts = relative(FRONTEND_SRC, file).split("/");
    return parts[0] === "components" ? `components/${parts[1]}` : parts[0];
  },
  target: (from, name) => (name.startsWith("@/") ? join(FRONTEND_SRC, name.slice(2)) : relativeImport(from, name)),
};

describe("the backend's layering", () => {
  const all = imports(backend);

  it("places every folder in a layer of the README's table", () => {
    const units = [...new Set(sourceFiles(SRC).map(backend.unitOf))];
    expect(units.filter((unit) => !backend.layers.has(unit))).toEqual([]);
  });

  it("has no import from a layer above, and no loop between folders", () => {
    expect(violations(backend)).toEqual({ upward: [], loops: [] });
  });

  it("keeps the turn's core free of transport: turns/, agent/ and sessions/ never import http/", () => {
    const offending = all.filter(({ from, to }) => ["turns", "agent", "sessions"].includes(backend.unitOf(from)) && backend.unitOf(to) === "http");
    expect(offending).toEqual([]);
  });
});

describe("the UI's layering", () => {
  it("places every folder in a layer of the README's second table", () => {
    const units = [...new Set(sourceFiles(FRONTEND_SRC).map(frontend.unitOf))];
    expect(units.filter((unit) => !frontend.layers.has(unit))).toEqual([]);
  });

  it("has no import from a layer above, and no loop between folders", () => {
    expect(imports(frontend).length).toBeGreaterThan(100);
    expect(violations(frontend)).toEqual({ upward: [], loops: [] });
  });
});
