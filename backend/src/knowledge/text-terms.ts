import { stemmer } from "stemmer";
import { memoByKey } from "../lib/memo-by-key.js";

/** A common English stop list (the SMART/Lucene core): words that carry no topic. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves also may might must shall et al however thus"
  ).split(" "),
);

/**
 * A word as Unicode's word boundaries (UAX #29, what Lucene's StandardTokenizer follows) draw it for
 * letters and digits: a decimal or grouped number stays one word (`2.5`, `1,000`: rule WB11/12), and
 * so do letters joined by an apostrophe or a period (`don't`, `e.g`: WB6/7). Written out rather than
 * read with Intl.Segmenter, which does the same 25 times slower (3.1 s for SciFact's 7.8 MB).
 */
const WORD = /[\p{L}\p{N}]+(?:(?:(?<=\p{L})['\u2019.:\u00b7](?=\p{L})|(?<=\p{N})[.,;](?=\p{N}))[\p{L}\p{N}]+)*/gu;
/** The possessive `'s` Lucene's EnglishPossessiveFilter drops: "Alzheimer's" is "alzheimer". */
const POSSESSIVE = /['\u2019]s$/;
/** Words joined by hyphens: `covid-19`, `il-6`, `t-cell`. */
const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

const GREEK: Record<string, string> = {
  α: "alpha", β: "beta", γ: "gamma", δ: "delta", ε: "epsilon", ζ: "zeta", η: "eta", θ: "theta", ι: "iota", κ: "kappa",
  λ: "lambda", μ: "mu", ν: "nu", ξ: "xi", π: "pi", ρ: "rho", σ: "sigma", τ: "tau", φ: "phi", χ: "chi", ψ: "psi", ω: "omega",
};
const GREEK_LETTER = /[α-ω]/g;

/**
 * The version of the text analysis below: an index whose terms were made by another version has
 * its BM25 terms made again from the stored chunks (and offline vectors recomputed).
 * 3: Chinese and Japanese are segmented (they were one "word" per run of characters).
 * 4: numbers and words with inner apostrophes or periods stay whole; the possessive `'s` is dropped.
 */
export const TEXT_ANALYSIS_VERSION = 4;

/**
 * Scripts written without spaces between words: Han (Chinese, and Japanese kanji), Hiragana and
 * Katakana (with its prolonged-sound mark). Korean separates words with spaces and is read like Latin.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const CJK_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+)/u;
/** ICU's dictionary word segmentation (Node's full ICU): Chinese and Japanese words. */
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
const kanaSegmenter = new Intl.Segmenter("ja", { granularity: "word" });
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The words of a run of Chinese or Japanese characters, as ICU segments them. */
function cjkWords(run: string): string[] {
  const out: string[] = [];
  for (const part of (KANA.test(run) ? kanaSegmenter : segmenter).segment(run)) if (part.isWordLike) out.push(part.segment);
  return out;
}

/**
 * The BM25 terms of a run of Chinese or Japanese characters: each character and each pair of
 * neighbours, as Lucene's CJK analyzer indexes them (bigrams, with unigrams): a question matches a
 * passage however either is segmented into words, and names no dictionary knows (青石镇) match too.
 */
function cjkTerms(run: string): string[] {
  const chars = [...run];
  const out = [...chars];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/**
 * Lower-cased words, stop words removed, Porter-stemmed: the terms both indexes are built on.
 * Greek letters are spelled out (papers write TNF-α and TNF-alpha alike), and a hyphenated
 * compound is also kept as one word (`il-6` → `il`, `6` and `il6`), so `IL6` finds `IL-6`. Measured on SciFact (docs/benchmarks.md): hybrid test 0.7072 → 0.72, train 0.6993 → 0.705.
 */
export function textTerms(text: string): string[] {
  const lower = text.toLowerCase();
  const out = scriptWords(lower.replace(GREEK_LETTER, (c) => (GREEK[c] ? ` ${GREEK[c]} ` : c)), cjkTerms);
  for (const match of lower.replace(GREEK_LETTER, (c) => GREEK[c] ?? c).matchAll(COMPOUND)) if (!CJK.test(match[0])) out.push(...textWords(match[0].replace(/-/g, "")));
  return out;
}

/**
 * The words of lower-cased text, by script: Latin (and every script written with spaces) as
 * `textWords` reads them; each run of Chinese or Japanese characters through `cjk`.
 */
function scriptWords(lower: string, cjk: (run: string) => string[]): string[] {
  if (!CJK.test(lower)) return latinWords(lower);
  const out: string[] = [];
  for (const match of lower.matchAll(WORD)) {
    const word = match[0];
    if (!CJK.test(word)) {
      out.push(...latinWords(word));
      continue;
    }
    for (const part of word.split(CJK_RUNS)) {
      if (part === "") continue;
      if (CJK.test(part)) out.push(...cjk(part));
      else out.push(...latinWords(part));
    }
  }
  return out;
}

/**
 * The words of lower-cased text, stop words removed, Porter-stemmed, in order (Chinese and Japanese
 * as ICU's words): what the offline embedder hashes (its word pairs need the order, and measured
 * better without the additions above).
 */
export function textWords(lower: string): string[] {
  return scriptWords(lower, cjkWords);
}

/**
 * Each word's stem, kept: the Porter stemmer is a run of regular expressions per word, and a text
 * repeats its words, and each chunk's words are stemmed twice (for BM25 and for the embedder).
 */
const stemOf = memoByKey((word) => (/^[a-z]+$/.test(word) ? stemmer(word) : word), 200_000);

function latinWords(lower: string): string[] {
  const out: string[] = [];
  for (const match of lower.matchAll(WORD)) {
    // Only a word with an apostrophe inside can end in one (most words: no second regex per word indexed).
    const word = match[0].length > 2 && (match[0].includes("'") || match[0].includes("\u2019")) ? match[0].replace(POSSESSIVE, "") : match[0];
    if (!STOP_WORDS.has(word)) out.push(stemOf(word));
  }
  return out;
}
