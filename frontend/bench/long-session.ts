/**
 * How the IDE copes with a long session: a 500-turn session (2,000 entries) opened from the
 * Sidebar in Debian's Chromium, then scrolled from bottom to top. Prints figures; asserts nothing.
 * Run: pnpm --filter ./frontend bench:ui   (needs `pnpm build` first)
 */
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { launch, openPage } from "../e2e/browser";
import { writeLongSession } from "../e2e/long-session";

const TURNS = Number(process.env.TURNS ?? 500);
const wb = await startWorkbench();
await writeLongSession(wb.dataRoot, "long-session", TURNS);
const browser = await launch();
const { page } = await openPage(browser, wb.url);
await page.getByTestId("session-item").first().waitFor();
await page.locator(".monaco-editor").waitFor(); // the page has finished starting up
await page.evaluate(() => {
  const w = window as unknown as { longTasks: number[] };
  w.longTasks = [];
  new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: "longtask" });
});

const clicked = Date.now();
await page.getByTestId("session-item").first().click();
await page.getByText(`Question number ${TURNS - 1}:`).waitFor();
await page.getByTestId("answer").last().waitFor();
const openMs = Date.now() - clicked;
const openLongTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0));

// Scroll up until the first turn is on screen, 600 px per animation frame (earlier turns load on the
// way), recording the gap between frames.
const scrolled = Date.now();
const frames = await page.evaluate(async () => {
  const el = document.querySelector('[data-testid="stage-scroll"]') as HTMLElement;
  const gaps: number[] = [];
  let last = performance.now();
  for (let i = 0; i < 5000; i++) {
    if (el.scrollTop === 0 && !document.querySelector('[data-testid="show-earlier"]')) break;
    el.scrollTop = Math.max(0, el.scrollTop - 600);
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  return { gaps, height: el.scrollHeight, turns: document.querySelectorAll('[data-testid="turn"]').length };
});
const scrollMs = Date.now() - scrolled;
const scrollLongTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0));
const sorted = [...frames.gaps].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const memory = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);

console.log(`turns: ${TURNS} (${TURNS * 4} session entries), scroll height ${frames.height} px`);
console.log(`open (click → last turn rendered): ${openMs} ms; long tasks during open: ${openLongTasks.length}, longest ${Math.round(Math.max(0, ...openLongTasks))} ms`);
console.log(`scroll bottom → top (${frames.gaps.length} frames, ${scrollMs} ms, ${frames.turns} turns rendered at the top): frame gap p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms; long tasks: ${scrollLongTasks.length}`);
console.log(`JS heap after open: ${(memory / 1024 / 1024).toFixed(1)} MB`);

await browser.close();
await wb.close();
