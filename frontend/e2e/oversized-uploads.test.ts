/**
 * A body refused for its size reaches the browser as a 413 with its `{ error }`, not as a network
 * failure: twenty uploads in a row from the page, by fetch and by XMLHttpRequest (what the Knowledge
 * view's upload with progress uses), to the file API and the knowledge upload.
 */
import { describe, expect, it } from "vitest";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

describe.skipIf(!chromiumAvailable)("oversized uploads from the browser", { timeout: 180_000 }, () => {
  const session = browserSession("oversized");

  it("twenty oversized bodies in a row (20 MB saves, 21 MB documents, by fetch and by XHR) each read a 413 and its error", async () => {
    const wb = session.use(await startWorkbench({ noModel: true }));
    const view = await session.open(wb.url);
    const { page } = view;
    const outcomes = await page.evaluate(async () => {
      const out: string[] = [];
      const file = JSON.stringify({ path: "workspace/big.md", content: "a".repeat(20 * 1024 * 1024) });
      const doc = new Uint8Array(21 * 1024 * 1024).fill(0x62);
      const read = async (response: Response) => `${response.status} ${typeof ((await response.json()) as { error?: string }).error}`;
      const xhr = (url: string, body: Blob) =>
        new Promise<string>((resolve) => {
          const request = new XMLHttpRequest();
          request.open("POST", url);
          request.setRequestHeader("content-type", "application/octet-stream");
          request.onload = () => resolve(`${request.status} ${typeof (JSON.parse(request.responseText) as { error?: string }).error}`);
          request.onerror = () => resolve("network error");
          request.send(body);
        });
      for (let i = 0; i < 10; i++) out.push(await fetch("/api/files", { method: "POST", headers: { "content-type": "application/json" }, body: file }).then(read, (err: Error) => `threw ${err.message}`));
      for (let i = 0; i < 5; i++) {
        out.push(await fetch(`/api/knowledge/documents?filename=big-${i}.txt`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: doc }).then(read, (err: Error) => `threw ${err.message}`));
        out.push(await xhr(`/api/knowledge/documents?filename=big-x${i}.txt`, new Blob([doc])));
      }
      return out;
    });
    expect(outcomes).toEqual(Array(20).fill("413 string"));
    // Chromium logs each refused request as "Failed to load resource": the refusals this test made, nothing else.
    expect(view.errors.every((e) => /status of 413/.test(e))).toBe(true);
    view.errors.length = 0;
  });
});
