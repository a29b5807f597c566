import { stemmer } from "stemmer";

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

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words, stop words removed, Porter-stemmed: the terms both indexes are built on. */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    out.push(/^[a-z]+$/.test(word) ? stemmer(word) : word);
  }
  return out;
}
