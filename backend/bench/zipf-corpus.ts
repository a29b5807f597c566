/** The scale benchmarks' corpus: Markdown of Zipf-distributed made-up words (a few common, many rare, as real text has), the same sequence every run. */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const syllables = ["ka", "lo", "mi", "ren", "tas", "vo", "qui", "ber", "nal", "sop", "dri", "fen", "gal", "hor", "ith", "jun", "mor", "pel", "rus", "tev"];
const vocabulary = Array.from({ length: 30_000 }, (_, i) => {
  let word = "";
  let n = i + 7;
  while (n > 0) {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  }
  return word;
});
export const zipfWord = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1)];
function paragraph(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(zipfWord());
  return `${out.join(" ")}.`;
}
/** ~26 KB of Markdown: a title, sections of paragraphs. */
export function documentText(n: number): string {
  const parts = [`# Document ${n}: ${paragraph(5)}`];
  while (parts.join("\n\n").length < 26_000) parts.push(parts.length % 6 === 1 ? `## ${paragraph(4)}` : paragraph(140));
  return parts.join("\n\n");
}

