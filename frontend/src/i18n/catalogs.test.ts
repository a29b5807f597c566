/**
 * The catalogs are whole: every key in both languages (plural forms by each language's rules), the
 * same `{{values}}` and tags in each, every key the code names present, and no words of the UI left
 * outside them (text between JSX tags, and the attributes a person reads or hears).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { en } from "./messages-en";
import { zh } from "./messages-zh";

const SRC = join(import.meta.dirname, "..");
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, "");
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<\/?(\w+)>/g)].map((m) => m[0]).sort();

/** Attributes whose text a person reads or hears. */
const READ_ATTRIBUTES = new Set(["aria-label", "aria-description", "placeholder", "title", "alt", "label", "data-tip", "description", "emptyText"]);
/** Text that is not words in any language: symbols, numbers, file names, the product's name. */
const NOT_WORDS = /^[\s\d\p{P}\p{S}]*$|^[A-Z][A-Z_]*(\.(json|md))?$|^(mini|OpenClaw|Mini-OpenClaw|MCP|OC)$/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A literal compared, not shown: `state === "adding"`, `"error" in reply`. */
const compared = (n: ts.Node) =>
  ts.isBinaryExpression(n.parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.InKeyword].includes(n.parent.operatorToken.kind);
/** Two words in a row: language, not an identifier or a path put together (`/mcp__${server}__${name}`). */
const TWO_WORDS = /[a-z]{2,}[,:;]? [a-z]{2,}/i;
const templateText = (n: ts.TemplateExpression) => [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(" ");

/** Words in JSX that bypass the catalogs, as `file:line: text`. */
function literalsIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const trimmed = text.trim();
    if (trimmed && !NOT_WORDS.test(trimmed)) found.push(`${file.slice(SRC.length + 1)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${trimmed.slice(0, 60)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value)) report(value, value.text);
      if (ts.isJsxExpression(value) && value.expression) {
        const strings = (n: ts.Node): void => {
          if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && !compared(n)) report(n, n.text);
          else if (ts.isTemplateExpression(n) && /[a-z]{3,}/i.test(templateText(n)) && !/[/_]/.test(templateText(n))) report(n, templateText(n));
          else if (!ts.isCallExpression(n)) ts.forEachChild(n, strings);
        };
        strings(value.expression);
      }
    }
    // A string a child expression renders: `{busy ? "Saving…" : "Save"}`.
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) && node.expression) {
      const strings = (n: ts.Node): void => {
        if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
          if (!compared(n) && /[a-z]{2,}/i.test(n.text)) report(n, n.text);
        } else if (ts.isTemplateExpression(n)) {
          if (TWO_WORDS.test(templateText(n))) report(n, templateText(n));
        } else if (!ts.isCallExpression(n) && !ts.isJsxElement(n) && !ts.isJsxSelfClosingElement(n)) ts.forEachChild(n, strings);
      };
      strings(node.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every `t("key")` / `i18n.t("key")` / `i18nKey="key"` the code names literally. */
function keysUsed(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bt\(\s*"([\w.-]+)"/g), ...text.matchAll(/i18nKey="([\w.-]+)"/g)].map((m) => m[1]);
}

describe("the message catalogs", () => {
  const enKeys = Object.keys(en);
  const zhKeys = Object.keys(zh);
  const enBases = new Set(enKeys.map(base));
  const zhBases = new Set(zhKeys.map(base));

  it("hold the same keys in English and Chinese (plurals by each language's forms)", () => {
    expect([...enBases].filter((key) => !zhBases.has(key))).toEqual([]);
    expect([...zhBases].filter((key) => !enBases.has(key))).toEqual([]);
    // English plurals need one and other; Chinese has one form, other.
    for (const key of enKeys.filter((k) => PLURAL.test(k))) expect(enKeys, key).toContain(`${base(key)}_other`);
    for (const key of enKeys.filter((k) => k.endsWith("_other"))) expect(zhKeys, key).toContain(key);
  });

  it("fill in the same values and tags in both languages, and translate", () => {
    const zhText = zh as Record<string, string>;
    const mismatched = enKeys
      .map((key) => [key, zhText[key] ?? zhText[`${base(key)}_other`]] as const)
      // English may say "every second" where other languages write the number: `_one` keeps its words.
      .filter(([key, translated]) => translated !== undefined && !key.endsWith("_one") && (placeholders(en[key as keyof typeof en]).join() !== placeholders(translated).join() || tags(en[key as keyof typeof en]).join() !== tags(translated).join()))
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
    // A Chinese entry that is the English one left untranslated (names and symbols aside).
    const untranslated = zhKeys.filter((key) => zhText[key] === (en as Record<string, string>)[key] && /[a-z]{3,}/.test(zhText[key]));
    expect(untranslated).toEqual([]);
  });

  it("have every key the code names", () => {
    const files = sourceFiles(SRC);
    const missing = files.flatMap((file) => keysUsed(file).filter((key) => !enBases.has(key)).map((key) => `${file}: ${key}`));
    expect(missing).toEqual([]);
  });

  it("hold every word of the UI: none is written into a component", () => {
    const found = sourceFiles(join(SRC, "components")).flatMap(literalsIn);
    expect(found).toEqual([]);
  });
});
