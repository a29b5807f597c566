import { cp, mkdir, mkdtemp, readdir, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HealthReply, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgeDocument, KnowledgeSourceReply } from "@mini-openclaw/protocol";
import { docx, epub, pptx, xlsx } from "../test-support/office-fixtures.js";
import type { KnowledgeStatus, SearchReply } from "../src/knowledge/knowledge-base.js";
import { minimalPdf, pagedPdf } from "../test-support/minimal-pdf.js";
import { lastMessage, messageText, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { chat, postJson, sessionIdOf, startWorkbench, storedEvents, type Workbench, type WorkbenchOptions } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
const roots: string[] = [];
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function newRoot(files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "moc-kb-"));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

const status = async () => (await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as KnowledgeStatus;
/** Waits until nothing is being indexed (a search during indexing answers from what is committed so far). */
const idle = () => expect.poll(async () => (await status()).indexing.running, { timeout: 15_000 }).toBe(false);
const searchNow = async (q: string, k = 5) => (await (await fetch(`${wb!.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=${k}`)).json()) as SearchReply;
const search = async (q: string, k = 5) => {
  await idle();
  return searchNow(q, k);
};

const DOCS = {
  "knowledge/ferments.md": "# Fermentation\n\nSauerkraut is cabbage fermented by lactic acid bacteria for three weeks.\n",
  "knowledge/space/orbits.txt": "A geostationary orbit has a period of one sidereal day at 35,786 km altitude.\n",
  "knowledge/garden.md": "# Garden\n\nTomatoes need six hours of sun and deep watering twice a week.\n",
};

describe("search over knowledge/", () => {
  it("finds passages with source, position, score and text; reports hybrid mode with the offline embedder", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot(DOCS) });
    const reply = await search("how long is cabbage fermented");
    expect(reply.mode).toBe("hybrid");
    expect(reply.embedder).toMatch(/offline embedder/);
    expect(reply.results[0]).toMatchObject({ source: "knowledge/ferments.md", chunk: 0, line: 1, text: expect.stringContaining("three weeks") });
    expect(reply.results[0].score).toBeGreaterThan(0);
    expect(reply.results[0].bm25).toBeGreaterThan(0);
    const health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
    expect(health.knowledge).toMatchObject({ documents: 3, mode: "hybrid", embedder: expect.stringMatching(/offline/) });
  });

  it("answers bad queries with clear errors", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot(DOCS) });
    expect((await fetch(`${wb.url}/api/knowledge/search`)).status).toBe(400);
    expect((await fetch(`${wb.url}/api/knowledge/search?q=x&k=0`)).status).toBe(400);
    expect((await fetch(`${wb.url}/api/knowledge/search?q=x&k=abc`)).status).toBe(400);
  });

  it("an empty knowledge folder: no results, no error", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot() });
    const reply = await search("anything at all");
    expect(reply.results).toEqual([]);
    expect(await status()).toMatchObject({ documents: 0, chunks: 0, mode: "hybrid" });
  });

  it("follows documents added, changed and deleted while the server runs, and never returns a deleted one", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({ dataRoot: root });
    expect((await search("volcano eruption magma")).results.some((r) => r.source === "knowledge/volcano.md")).toBe(false);

    await writeFile(join(root, "knowledge/volcano.md"), "Magma reaches the surface in a volcano eruption as lava.\n");
    await expect.poll(async () => (await search("volcano eruption magma")).results[0]?.source, { timeout: 5000 }).toBe("knowledge/volcano.md");

    await writeFile(join(root, "knowledge/garden.md"), "# Garden\n\nBlueberries want acidic soil with a pH near 5.\n");
    await expect.poll(async () => (await search("acidic soil blueberries")).results[0]?.source, { timeout: 5000 }).toBe("knowledge/garden.md");
    expect((await search("tomatoes six hours of sun")).results.some((r) => r.text.includes("Tomatoes"))).toBe(false);

    await unlink(join(root, "knowledge/volcano.md"));
    // Immediately, before any re-scan: the deleted document is already gone from results.
    expect((await search("volcano eruption magma")).results.some((r) => r.source === "knowledge/volcano.md")).toBe(false);
    await expect.poll(async () => (await status()).documents, { timeout: 5000 }).toBe(3);
  });

  it("follows the folder by its events: no walk while nothing changes, a new sub-folder's documents found", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({ dataRoot: root });
    await expect.poll(async () => (await status()).documents, { timeout: 5000 }).toBe(3);
    await new Promise((r) => setTimeout(r, 1000)); // the looks that follow the start settle
    const before = (await status()).watch;
    expect(before).toMatchObject({ mode: "events", reason: null });
    expect(before.folders).toBeGreaterThanOrEqual(3); // the data root, knowledge/, knowledge/space/
    // Longer than the old 2 s polling period, with searches (which used to look at the folder each second).
    for (let i = 0; i < 4; i++) {
      expect((await search("cabbage lactic")).results[0].source).toBe("knowledge/ferments.md");
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await status()).watch.walks, "walks of knowledge/ while nothing changed").toBe(before.walks);

    await mkdir(join(root, "knowledge/recipes/winter"), { recursive: true });
    await writeFile(join(root, "knowledge/recipes/winter/borscht.md"), "Borscht is a beetroot soup served with sour cream.\n");
    await expect.poll(async () => (await search("beetroot soup")).results[0]?.source, { timeout: 5000 }).toBe("knowledge/recipes/winter/borscht.md");
    // The new folders are watched now: a second document there is seen by its event alone.
    await writeFile(join(root, "knowledge/recipes/winter/kvass.md"), "Kvass is fermented from rye bread.\n");
    await expect.poll(async () => (await status()).documents, { timeout: 5000 }).toBe(5);
    expect((await status()).watch.walks).toBeGreaterThan(before.walks);
  });

  it("a tool churning files in knowledge/ gets at most one walk per 500 ms, and every file in the end", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({ dataRoot: root });
    await expect.poll(async () => (await status()).documents, { timeout: 5000 }).toBe(3);
    await new Promise((r) => setTimeout(r, 1000));
    const before = (await status()).watch.walks;
    const started = Date.now();
    for (let i = 0; i < 60; i++) {
      await writeFile(join(root, `knowledge/churn-${i}.md`), `Churned note ${i}.\n`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await expect.poll(async () => (await status()).documents, { timeout: 10_000 }).toBe(63);
    const walks = (await status()).watch.walks - before;
    const seconds = (Date.now() - started) / 1000;
    expect(walks, `${walks} walks in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(Math.ceil(seconds / 0.5) + 2);
  });

  it("extracts a PDF's text", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot({ "knowledge/report.pdf": minimalPdf(["Quarterly report", "Revenue grew by 12 percent in the northern region."]) }) });
    const reply = await search("northern region revenue");
    expect(reply.results[0]).toMatchObject({ source: "knowledge/report.pdf", line: 1, text: expect.stringContaining("Revenue grew by 12 percent") });
  });

  it("a PDF's passages are cited by page, and its text opens with each page marked; Word opens as its text", async () => {
    const pdf = pagedPdf([["Annual report", "Introduction to the year."], ["Costs", "Shipping costs fell after the new depot opened."], ["Outlook", "Hiring continues in spring."]]);
    wb = await startWorkbench({ dataRoot: await newRoot({ "knowledge/annual.pdf": pdf, "knowledge/memo.docx": docx(["Memo", "The depot opens on Monday."]), "knowledge/notes.md": "# Notes\n" }) });
    const hit = (await search("shipping costs depot")).results.find((r) => r.source === "knowledge/annual.pdf");
    expect(hit).toMatchObject({ line: 2 }); // page 2
    const source = (await (await fetch(`${wb.url}/api/knowledge/source?path=knowledge/annual.pdf`)).json()) as KnowledgeSourceReply;
    expect(source).toMatchObject({ path: "knowledge/annual.pdf", page_word: "page", pages: [{ page: 1 }, { page: 2 }, { page: 3 }] });
    const lines = source.text.split("\n");
    const page2 = source.pages!.find((p) => p.page === 2)!.line;
    expect(lines[page2 - 2]).toBe("── page 2 ──");
    expect(lines.slice(page2 - 1, page2 + 2).join(" ")).toContain("Shipping costs fell");

    const memo = await (await fetch(`${wb.url}/api/knowledge/source?path=knowledge/memo.docx`)).json();
    expect(memo).toMatchObject({ pages: null, page_word: null, text: expect.stringContaining("The depot opens on Monday.") });
    // Bad requests: outside knowledge/, a kind the index does not read, missing, not a document.
    const status = async (path: string) => (await fetch(`${wb!.url}/api/knowledge/source?path=${encodeURIComponent(path)}`)).status;
    expect(await status("memory/MEMORY.md")).toBe(400);
    expect(await status("knowledge/../KEY.md")).toBe(403);
    expect(await status("knowledge/missing.pdf")).toBe(404);
  });

  it("while documents are indexed: the status says so from the first moment, and a search answers from what is committed with indexing: true", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`knowledge/many/n${i}.md`] = `Note ${i} on zymurgy: brewing batch ${i} fermented for ${i % 20} days.\n`;
    wb = await startWorkbench({ dataRoot: await newRoot(files) });
    const first = await status();
    expect(first.indexing.running).toBe(true);
    const during = await searchNow("zymurgy brewing");
    expect(during.indexing).toBe(true);
    expect((await status()).indexing.running).toBe(true);
    await idle();
    const after = await searchNow("zymurgy brewing");
    expect(after).toMatchObject({ indexing: false, mode: "hybrid" });
    expect(after.results).toHaveLength(5);
    expect(await status()).toMatchObject({ documents: 600, indexing: { running: false, done: 600, total: 600 } });

    // Looks that find nothing to index (a file of another kind written beside the notes) are not indexing:
    // every search meanwhile says the index is complete.
    await writeFile(join(wb.dataRoot, "knowledge/many/scratch.bin"), "not a document");
    const replies: boolean[] = [];
    for (const started = Date.now(); Date.now() - started < 1500; ) replies.push((await searchNow("zymurgy brewing")).indexing);
    expect(replies.filter(Boolean)).toEqual([]);
  });

  it("rebuilds on request, with progress in the status", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot(DOCS) });
    await search("cabbage");
    const response = await postJson(`${wb.url}/api/knowledge/rebuild`, {});
    expect(response.status).toBe(202);
    await expect.poll(async () => (await status()).indexing.running, { timeout: 5000 }).toBe(false);
    expect(await status()).toMatchObject({ documents: 3, indexing: { done: 3, total: 3 } });
    expect((await search("cabbage")).results[0].source).toBe("knowledge/ferments.md");
  });
});

describe("the documents list (the Knowledge view)", () => {
  it("names every document with its state and chunks, and a file that cannot be read with the reason", async () => {
    wb = await startWorkbench({ dataRoot: await newRoot({ ...DOCS, "knowledge/broken.pdf": "%PDF-1.7 this is not really a PDF" }) });
    await search("cabbage"); // indexes
    const { documents } = (await (await fetch(`${wb.url}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] };
    expect(documents.map((d) => [d.path, d.state])).toEqual([
      ["knowledge/broken.pdf", "failed"],
      ["knowledge/ferments.md", "indexed"],
      ["knowledge/garden.md", "indexed"],
      ["knowledge/space/orbits.txt", "indexed"],
    ]);
    expect(documents[0].reason).toMatch(/\w/);
    expect(documents[1]).toMatchObject({ chunks: 1, bytes: DOCS["knowledge/ferments.md"].length });
  });
});

describe("the formats people keep", () => {
  it("Word, PowerPoint, Excel, CSV, EPUB and HTML are indexed and found; a damaged one is listed with its reason", async () => {
    wb = await startWorkbench({
      dataRoot: await newRoot({
        "knowledge/report.docx": Buffer.from(docx(["Quarterly report", "The aurora sensor drifted by four degrees."])),
        "knowledge/deck.pptx": Buffer.from(pptx([["Intro"], ["The marmot census counted 212 animals."]])),
        "knowledge/budget.xlsx": Buffer.from(xlsx([{ name: "Gear", rows: [["Item", "Cost"], ["Snowshoes", 180]] }])),
        "knowledge/stations.csv": "station,elevation\nBristlecone Ridge,3400\n",
        "knowledge/book.epub": Buffer.from(epub([{ title: "Falls", paragraphs: ["The cataract froze in January."] }])),
        "knowledge/page.html": "<html><head><title>Kiln log</title></head><body><main><p>Cone ten reached at dawn.</p></main></body></html>",
        "knowledge/damaged.docx": "PK not really a zip",
      }),
    });
    const top = async (q: string) => (await search(q, 1)).results[0];
    expect(await top("aurora sensor drifted")).toMatchObject({ source: "knowledge/report.docx", text: expect.stringContaining("four degrees") });
    expect(await top("marmot census")).toMatchObject({ source: "knowledge/deck.pptx", line: 2 });
    expect(await top("snowshoes cost")).toMatchObject({ source: "knowledge/budget.xlsx", text: expect.stringContaining("Snowshoes | 180") });
    expect(await top("bristlecone elevation")).toMatchObject({ source: "knowledge/stations.csv" });
    expect(await top("cataract froze")).toMatchObject({ source: "knowledge/book.epub" });
    expect(await top("cone ten dawn")).toMatchObject({ source: "knowledge/page.html", text: expect.stringContaining("Kiln log") });
    const { documents } = (await (await fetch(`${wb.url}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] };
    expect(documents.find((d) => d.path === "knowledge/damaged.docx")).toMatchObject({ state: "failed", reason: expect.stringMatching(/\w{4}/) });
    expect(documents.filter((d) => d.state === "indexed")).toHaveLength(6);
  });
});

describe("persistence", () => {
  const withEmbeddings = (root: string): WorkbenchOptions => ({ dataRoot: root, env: { EMBEDDING_MODEL: "scripted-embed" } });

  it("a restart reloads the index from storage/ without embedding the documents again", async () => {
    const root = await newRoot(DOCS);
    const model = await startScriptedModelServer();
    try {
      wb = await startWorkbench({ ...withEmbeddings(root), model });
      expect((await search("sidereal day orbit")).mode).toBe("hybrid");
      expect(model.embeddedTexts.filter((t) => t.includes("geostationary"))).toHaveLength(1);
      await wb.close();
      model.embeddedTexts.length = 0;

      wb = await startWorkbench({ ...withEmbeddings(root), model });
      const reply = await search("sidereal day orbit");
      expect(reply.results[0].source).toBe("knowledge/space/orbits.txt");
      // The new server embedded only the query, never a document.
      expect(model.embeddedTexts).toEqual(["sidereal day orbit"]);
    } finally {
      await wb?.close();
      wb = undefined;
      await model.close();
    }
  });

  it("a restart with another embedder: the old vectors are dropped and every chunk embedded by the new one, and back", async () => {
    const root = await newRoot(DOCS);
    const model = await startScriptedModelServer();
    try {
      wb = await startWorkbench({ dataRoot: root });
      expect(await search("sidereal day orbit")).toMatchObject({ mode: "hybrid", results: [{ source: "knowledge/space/orbits.txt" }] });
      await wb.close();

      wb = await startWorkbench({ ...withEmbeddings(root), model });
      await expect.poll(async () => model.embeddedTexts.filter((t) => t.includes("geostationary")).length, { timeout: 10_000 }).toBe(1);
      const endpoint = await search("sidereal day orbit");
      expect(endpoint).toMatchObject({ mode: "hybrid", embedder: expect.stringContaining("scripted-embed") });
      expect(endpoint.results[0]).toMatchObject({ source: "knowledge/space/orbits.txt", vector: expect.any(Number) });
      await wb.close();

      wb = await startWorkbench({ dataRoot: root });
      const offline = await search("sidereal day orbit");
      expect(offline).toMatchObject({ mode: "hybrid", embedder: expect.stringContaining("offline") });
      expect(offline.results[0]).toMatchObject({ source: "knowledge/space/orbits.txt", vector: expect.any(Number) });
    } finally {
      await wb?.close();
      wb = undefined;
      await model.close();
    }
  });

  it("an index stored by the version before the SQLite store is taken over: every document indexed again, its files gone", async () => {
    const root = await newRoot({ ...DOCS, "knowledge/notes/orbits.txt": DOCS["knowledge/space/orbits.txt"] });
    await rm(join(root, "knowledge/space"), { recursive: true });
    const store = join(root, "storage/knowledge");
    await cp(join(import.meta.dirname, "fixtures/knowledge-store-v1"), store, { recursive: true });
    await rm(join(store, "README.md"));
    wb = await startWorkbench({ dataRoot: root });
    await expect.poll(async () => (await status()).indexing.running, { timeout: 10_000 }).toBe(false);
    const after = await status();
    expect(after).toMatchObject({ documents: 3, chunks: 3, recovered: expect.stringMatching(/earlier version.*indexed again/) });
    expect((await search("cabbage fermented")).results[0]).toMatchObject({ source: "knowledge/ferments.md", vector: expect.any(Number) });
    expect((await search("sidereal day")).results[0].source).toBe("knowledge/notes/orbits.txt");
    expect((await readdir(store)).filter((name) => !name.startsWith("index.db"))).toEqual([]);
  });

  it("a damaged database is set aside and rebuilt from the documents, not fatal", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({ dataRoot: root });
    await expect.poll(async () => (await search("cabbage")).results.length, { timeout: 5000 }).toBe(1);
    await wb.close();
    const db = join(root, "storage/knowledge/index.db");
    for (const suffix of ["", "-wal", "-shm"]) await rm(`${db}${suffix}`, { force: true });
    await writeFile(db, Buffer.alloc(8192, 0x5a)); // not SQLite at all (a bad copy, a file from elsewhere)
    wb = await startWorkbench({ dataRoot: root });
    await expect.poll(async () => (await search("cabbage fermented")).results[0]?.source, { timeout: 10_000 }).toBe("knowledge/ferments.md");
    expect((await status()).recovered).toMatch(/could not be read.*rebuilt/);
  });

  it("an embedding endpoint that fails: a clear error, and BM25 keeps answering", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({ ...withEmbeddings(root), configure: () => {} });
    wb.model.failEmbeddings = 500;
    // The background indexing may have finished before the failure was switched on: force a re-embed.
    await postJson(`${wb.url}/api/knowledge/rebuild`, {});
    await expect.poll(async () => (await status()).indexing.running === false && (await status()).embedder.error !== null, { timeout: 5000 }).toBe(true);
    // The rebuild answers 202 and runs after: "not running" can be seen before it started, with the index empty meanwhile.
    await expect.poll(async () => (await search("cabbage fermented")).results[0]?.source, { timeout: 10_000 }).toBe("knowledge/ferments.md");
    const reply = await search("cabbage fermented");
    expect(reply.mode).toBe("bm25");
    expect(reply.note).toMatch(/vector search unavailable \(the embedding endpoint answered 500.*\); results are from BM25 alone/);
    expect(reply.results[0].source).toBe("knowledge/ferments.md");
    expect(await status()).toMatchObject({ mode: "bm25", embedder: { mode: "openai", error: expect.stringContaining("500") } });

    // When the endpoint is back, the next sync embeds what was missing: hybrid again.
    wb.model.failEmbeddings = null;
    await writeFile(join(root, "knowledge/new.md"), "Fresh note about kombucha.\n");
    await expect.poll(async () => (await search("kombucha")).mode, { timeout: 5000 }).toBe("hybrid");
  });
});

describe("the agent uses the knowledge base", () => {
  it("calls search_knowledge_base and cites the source path in its final answer", async () => {
    const root = await newRoot(DOCS);
    wb = await startWorkbench({
      dataRoot: root,
      script: (body) => {
        const last = lastMessage(body);
        if (last.role === "tool") {
          const output = messageText(last.content);
          const hit = /\[1\] (\S+) \(chunk \d+, line (\d+)\)[^\n]*\n([^\n]+)/.exec(output);
          return { content: hit ? `Three weeks, according to ${hit[1]} (line ${hit[2]}).` : "Nothing found." };
        }
        return { toolCalls: [{ name: "search_knowledge_base", args: { query: "how long is sauerkraut fermented" } }] };
      },
    });
    await idle();
    const events = await chat(wb, "How long should I ferment sauerkraut?");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ name: "search_knowledge_base" });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true, output: expect.stringContaining("knowledge/ferments.md") });
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "Three weeks, according to knowledge/ferments.md (line 1)." });
    const session = (await (await fetch(`${wb.url}/api/sessions/${sessionIdOf(events)}`)).json()) as SessionDetail;
    expect(storedEvents(session.entries).find((e) => e.type === "tool_result")).toMatchObject({ name: "search_knowledge_base", ok: true });
  });
});
