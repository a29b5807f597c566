/**
 * What the `browser` tool costs per action, and how big the outline the model reads is, on three
 * kinds of pages served locally: a news article, a form, a long table (500 rows). Each action is the
 * whole tool call as the agent loop runs it (the action, the page's outline, the screenshot stored).
 * The browser is started once (its start is reported apart). Outline tokens with o200k_base
 * (GPT-4o's encoding, js-tiktoken, offline).
 * Run: pnpm --filter ./backend bench:browser   (ROUNDS=n per page, 10 by default)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { findBrowser } from "../src/browser/find-browser.js";
import { startToolHarness } from "../test-support/tool-harness.js";

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x: number) => `${x.toFixed(0)} ms`;
const encoder = new Tiktoken(o200k);

const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ["cloud", "river", "market", "council", "budget", "winter", "harbour", "signal", "quarter", "report"][(i * 7 + seed) % 10]).join(" ");
const ARTICLE = `<!doctype html><title>City council passes winter budget</title>
<header><nav>${Array.from({ length: 12 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(" ")}</nav></header>
<main><article><h1>City council passes winter budget</h1><p class="byline">By A. Reporter · 27 November 2026</p>
${Array.from({ length: 14 }, (_, i) => `${i % 4 === 3 ? `<h2>${words(5, i)}</h2>` : ""}<p>${words(90, i)}. <a href="/story/${i}">Related story ${i}</a></p>`).join("\n")}
</article><aside><h2>Most read</h2><ol>${Array.from({ length: 8 }, (_, i) => `<li><a href="/top/${i}">${words(8, i)}</a></li>`).join("")}</ol></aside></main>
<footer>${Array.from({ length: 10 }, (_, i) => `<a href="/about/${i}">About ${i}</a>`).join(" ")}</footer>`;
const FORM = `<!doctype html><title>Book a flight</title><h1>Book a flight</h1><form action="/form">
<label>From <input name="from"></label><label>To <input name="to"></label><label>Date <input type="date" name="date"></label>
<label>Class <select name="class"><option>Economy</option><option>Business</option><option>First</option></select></label>
<fieldset><legend>Passengers</legend>${["Adults", "Children", "Infants"].map((p) => `<label>${p} <input type="number" name="${p}"></label>`).join("")}</fieldset>
<label><input type="checkbox" name="flex"> Flexible dates</label><label>Notes <textarea name="notes"></textarea></label>
<button type="submit">Search flights</button></form>`;
const TABLE = `<!doctype html><title>Fares</title><h1>Fares</h1><a href="/table">Reload</a><table><thead><tr><th>Flight</th><th>From</th><th>To</th><th>Departs</th><th>Price</th></tr></thead><tbody>
${Array.from({ length: 500 }, (_, i) => `<tr><td>MO${1000 + i}</td><td>Paris</td><td>Lyon</td><td>${String(6 + (i % 16)).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}</td><td>€${40 + ((i * 37) % 300)}</td></tr>`).join("\n")}
</tbody></table>`;
const PAGES: Record<string, { html: string; click: RegExp }> = {
  "news article": { html: ARTICLE, click: /link "Related story 3"/ },
  form: { html: FORM, click: /checkbox "Flexible dates"/ },
  "long table (500 rows)": { html: TABLE, click: /link "Reload"/ },
};

const executable = findBrowser(process.env.BROWSER_PATH ?? null);
if (!executable) {
  console.log("no Chromium installed: nothing to measure (apt-get install chromium)");
  process.exit(0);
}
const site = createServer((req, res) => {
  const page = Object.values(PAGES).find((_, i) => (req.url ?? "").startsWith(["/article", "/form", "/table"][i]));
  res.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(page?.html ?? "no");
});
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const port = (site.address() as AddressInfo).port;
const h = await startToolHarness({ env: { FETCH_ALLOWLIST: `127.0.0.1:${port}` } });

console.log(`browser: ${executable}; ${ROUNDS} rounds per page; each figure is one whole tool call (action, outline, screenshot stored)`);
let t = performance.now();
await h.run("browser", { action: "navigate", url: `http://127.0.0.1:${port}/form` });
console.log(`first call (browser start + navigate): ${ms(performance.now() - t)}`);

const paths = ["/article", "/form", "/table"];
const rows: string[] = [];
for (const [i, [name, page]] of Object.entries(PAGES).entries()) {
  const times = { navigate: [] as number[], snapshot: [] as number[], click: [] as number[] };
  let outline = "";
  let screenshotBytes = 0;
  let cut = "";
  for (let round = 0; round < ROUNDS; round++) {
    t = performance.now();
    await h.run("browser", { action: "navigate", url: `http://127.0.0.1:${port}${paths[i]}?r=${round}` });
    times.navigate.push(performance.now() - t);
    t = performance.now();
    const snap = await h.run("browser", { action: "snapshot" });
    times.snapshot.push(performance.now() - t);
    outline = snap.output.slice(snap.output.search(/^Outline\b/m));
    cut = snap.details?.outline_cut === true ? ` (cut from ${Number(snap.details.outline_chars).toLocaleString("en")})` : "";
    screenshotBytes = (snap.details?.screenshot as { bytes: number } | null)?.bytes ?? 0;
    const ref = /\[ref=([a-z0-9]+)\]/.exec(snap.output.split("\n").find((l) => page.click.test(l)) ?? "")?.[1];
    if (!ref) throw new Error(`no element to click on ${name}: ${snap.output.slice(0, 600)}`);
    t = performance.now();
    await h.run("browser", { action: "click", ref });
    times.click.push(performance.now() - t);
  }
  const fig = (xs: number[]) => `${ms(quantile(xs, 0.5))} / ${ms(quantile(xs, 0.95))}`;
  rows.push(`| ${name} | ${fig(times.navigate)} | ${fig(times.snapshot)} | ${fig(times.click)} | ${outline.length.toLocaleString("en")} chars${cut}, ${encoder.encode(outline).length.toLocaleString("en")} tokens | ${(screenshotBytes / 1024).toFixed(0)} KB |`);
}
console.log("\n| page | navigate p50 / p95 | snapshot p50 / p95 | click p50 / p95 | outline | screenshot |\n|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
const status = await h.runtime.browsers.status();
console.log(`\nbrowser memory after the run: ${status.sessions[0]?.memory_mb ?? 0} MB resident (Chromium's processes, proportional shares summed)`);
await h.close();
site.close();
