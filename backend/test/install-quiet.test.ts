/**
 * The install stays quiet (issue 41): every installed package with a build script is either allowed to
 * run it or declared as not needing it in pnpm-workspace.yaml, so pnpm prints no "Ignored build
 * scripts" box on a fresh clone.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

async function packagesWithBuildScripts(): Promise<string[]> {
  const store = join(ROOT, "node_modules/.pnpm");
  const found = new Set<string>();
  for (const entry of await readdir(store)) {
    const modules = join(store, entry, "node_modules");
    const names = await readdir(modules).catch(() => [] as string[]);
    const dirs = (await Promise.all(names.map(async (n) => (n.startsWith("@") ? (await readdir(join(modules, n)).catch(() => [])).map((s) => `${n}/${s}`) : [n])))).flat();
    for (const dir of dirs) {
      const manifest = await readFile(join(modules, dir, "package.json"), "utf8").then((t) => JSON.parse(t) as { name: string; scripts?: Record<string, string> }, () => null);
      const scripts = manifest?.scripts ?? {};
      if (manifest && (scripts.preinstall || scripts.install || scripts.postinstall)) found.add(manifest.name);
    }
  }
  return [...found].sort();
}

describe("the install", () => {
  it("declares every dependency's build script as allowed or not needed", async () => {
    const workspace = matter(`---\n${await readFile(join(ROOT, "pnpm-workspace.yaml"), "utf8")}\n---\n`, {}).data as { onlyBuiltDependencies?: string[]; ignoredBuiltDependencies?: string[] };
    const declared = new Set([...(workspace.onlyBuiltDependencies ?? []), ...(workspace.ignoredBuiltDependencies ?? [])]);
    const scripted = await packagesWithBuildScripts();
    expect(scripted).toContain("tree-sitter-bash");
    expect(scripted.filter((name) => !declared.has(name))).toEqual([]);
  });
});
