/**
 * Vitest setup: the workbench must need nothing from the internet at run time beyond the model endpoint
 * (PRODUCT.md; the tests point that at 127.0.0.1). Any fetch to another host fails the file that made it.
 * Found by it: LangChain's `invoke()` on a streaming ChatOpenAI downloads a tiktoken encoding.
 */
import { afterAll, expect } from "vitest";

const LOCAL = new Set(["127.0.0.1", "localhost", "[::1]"]);
const attempts: string[] = [];
const realFetch = globalThis.fetch;

globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  if (!LOCAL.has(url.hostname)) {
    attempts.push(url.href);
    return Promise.reject(new Error(`the test suite has no internet: ${url.href}`));
  }
  return realFetch(input, init);
};

afterAll(() => {
  expect(attempts, "requests to hosts other than 127.0.0.1").toEqual([]);
});
