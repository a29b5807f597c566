import { expect } from "vitest";
import type { WatchedPage } from "./browser";

/** After each test: nothing left 127.0.0.1 and the console stayed clean; then the page's context is closed. */
export async function checkAndClosePage(view: WatchedPage | undefined): Promise<void> {
  expect(view?.external ?? [], "requests that left 127.0.0.1").toEqual([]);
  expect(view?.errors ?? [], "browser console errors").toEqual([]);
  await view?.page.context().close();
}
