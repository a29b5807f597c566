/**
 * Documents as real producers write them: workbooks saved by openpyxl (Debian's python3-openpyxl),
 * Word documents by python-docx and PDFs by reportlab, and text files saved by Python's codecs and glibc's iconv in the encodings people have (UTF-8 with
 * a BOM, UTF-16 with and without one, Windows-1252, Latin-1). Skipped, loudly, where the producer is
 * not on the machine (CI installs them).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnowledgeDocument, KnowledgeSearchReply, KnowledgeSourceReply, KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { zipSync } from "fflate";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

/** A Python that has these modules: the one on PATH, or Debian's. */
const pythonWith = (modules: string) =>
  ["python3", "/usr/bin/python3"].find((bin) => {
    try {
      execFileSync(bin, ["-c", `import ${modules}`], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
const python = pythonWith("openpyxl");
if (!python) console.warn("\n*** SKIPPED: openpyxl workbooks (no python3 with openpyxl; apt-get install python3-openpyxl) ***\n");
/** python-docx and reportlab: Debian's python3-docx, python3-reportlab. */
const officePython = pythonWith("docx, reportlab");
if (!officePython) console.warn("\n*** SKIPPED: python-docx and reportlab documents (apt-get install python3-docx python3-reportlab) ***\n");
const iconv = (() => {
  try {
    execFileSync("iconv", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!iconv) console.warn("\n*** SKIPPED: iconv-encoded text files (no iconv on this machine) ***\n");

let wb: Workbench | undefined;
const temps: string[] = [];
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

const status = async () => (await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as KnowledgeStatusReply;
const idle = () => expect.poll(async () => (await status()).indexing.running, { timeout: 15_000 }).toBe(false);
const search = async (q: string) => (await (await fetch(`${wb!.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=5`)).json()) as KnowledgeSearchReply;
const source = async (path: string) => (await (await fetch(`${wb!.url}/api/knowledge/source?path=${encodeURIComponent(path)}`)).json()) as KnowledgeSourceReply;
const documents = async () => ((await (await fetch(`${wb!.url}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] }).documents;

describe("workbooks as producers write them", () => {
  it.skipIf(!python)("an openpyxl workbook (absolute relationship targets, shared strings) is indexed and found, every sheet", async () => {
    const dir = await mkdtemp(join(tmpdir(), "moc-xlsx-"));
    temps.push(dir);
    const file = join(dir, "budget.xlsx");
    execFileSync(python!, [
      "-c",
      [
        "import sys, openpyxl",
        "wb = openpyxl.Workbook()",
        "ws = wb.active; ws.title = 'Budget'",
        "ws.append(['Item', 'Cost']); ws.append(['Tents', 240]); ws.append(['Stoves', 95.5])",
        "notes = wb.create_sheet('Notes & <Ideas>')",
        "notes.append(['Café crème at the trailhead'])",
        "wb.save(sys.argv[1])",
      ].join("\n"),
      file,
    ]);
    wb = await startWorkbench();
    const upload = await fetch(`${wb.url}/api/knowledge/documents?filename=budget.xlsx`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: await readFile(file),
    });
    expect(upload.status).toBe(201);
    expect(await upload.json()).toMatchObject({ path: "knowledge/budget.xlsx", state: "indexed", chunks: expect.any(Number) });
    expect((await documents()).find((d) => d.path === "knowledge/budget.xlsx")).toMatchObject({ state: "indexed", chunks: 2 }); // a chunk per sheet
    expect((await search("tents stoves")).results[0]).toMatchObject({ source: "knowledge/budget.xlsx" });
    const text = (await source("knowledge/budget.xlsx")).text;
    expect(text).toContain("# Budget\nItem | Cost\nTents | 240\nStoves | 95.5");
    expect(text).toContain("# Notes & <Ideas>\nCafé crème at the trailhead");
  });

  it("a workbook with inline strings and prefixed SpreadsheetML (as some exporters write) reads the same", async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const enc = (text: string) => new TextEncoder().encode(text);
    const bytes = zipSync({
      "[Content_Types].xml": enc('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      "xl/workbook.xml": enc(`<?xml version="1.0"?><x:workbook ${ns}><x:sheets><x:sheet r:id="rId7" sheetId="1" name="Gear"/></x:sheets></x:workbook>`),
      "xl/_rels/workbook.xml.rels": enc(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="worksheets/gear.xml" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Id="rId7"/></Relationships>',
      ),
      "xl/worksheets/gear.xml": enc(
        `<?xml version="1.0"?><x:worksheet ${ns}><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Headlamp &amp; batteries</x:t></x:is></x:c><x:c r="B1"><x:v>3</x:v></x:c></x:row>` +
          `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:r><x:t>Rich </x:t></x:r><x:r><x:t xml:space="preserve">text run</x:t></x:r></x:is></x:c></x:row></x:sheetData></x:worksheet>`,
      ),
    });
    wb = await startWorkbench();
    await writeFile(join(wb.dataRoot, "knowledge/gear.xlsx"), bytes);
    await idle();
    await expect.poll(async () => (await search("headlamp batteries")).results[0]?.source, { timeout: 5000 }).toBe("knowledge/gear.xlsx");
    expect((await source("knowledge/gear.xlsx")).text).toBe("# Gear\nHeadlamp & batteries | 3\nRich text run");
  });
});

describe("Word and PDF as producers write them", () => {
  async function produce(name: string, script: string[]): Promise<Buffer> {
    const dir = await mkdtemp(join(tmpdir(), "moc-office-"));
    temps.push(dir);
    execFileSync(officePython!, ["-c", script.join("\n"), join(dir, name)]);
    return readFile(join(dir, name));
  }
  const upload = (name: string, body: Buffer) =>
    fetch(`${wb!.url}/api/knowledge/documents?filename=${name}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body });

  it.skipIf(!officePython)("a python-docx document (headings, paragraphs, a table) is indexed and found, its text in order", async () => {
    const bytes = await produce("trip.docx", [
      "import sys, docx",
      "d = docx.Document()",
      "d.add_heading('Trip plan', 0)",
      "d.add_paragraph('We leave from the glacier hut at dawn; crampons are required.')",
      "t = d.add_table(rows=2, cols=2)",
      "t.cell(0, 0).text = 'Day'; t.cell(0, 1).text = 'Camp'",
      "t.cell(1, 0).text = 'Tuesday'; t.cell(1, 1).text = 'Moraine bivouac'",
      "d.add_heading('Après-ski', level=1)",
      "d.add_paragraph('Fondue at the café in the valley.')",
      "d.save(sys.argv[1])",
    ]);
    wb = await startWorkbench();
    const reply = await upload("trip.docx", bytes);
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ path: "knowledge/trip.docx", state: "indexed" });
    expect((await search("crampons glacier hut")).results[0]).toMatchObject({ source: "knowledge/trip.docx" });
    expect((await search("moraine bivouac")).results[0]).toMatchObject({ source: "knowledge/trip.docx" });
    const text = (await source("knowledge/trip.docx")).text;
    const order = ["Trip plan", "glacier hut", "Tuesday", "Moraine bivouac", "Après-ski", "Fondue at the café"].map((s) => text.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it.skipIf(!officePython)("a reportlab PDF of three pages: each passage cited by its page", async () => {
    const bytes = await produce("field-guide.pdf", [
      "import sys",
      "from reportlab.lib.pagesizes import A4",
      "from reportlab.pdfgen import canvas",
      "c = canvas.Canvas(sys.argv[1], pagesize=A4)",
      "pages = [['Field guide', 'Lichens grow slowly on north faces.'], ['Birds', 'The wallcreeper nests in limestone cliffs.'], ['Weather', 'Föhn winds warm the valley in spring.']]",
      "for lines in pages:",
      "    y = 800",
      "    for line in lines:",
      "        c.drawString(72, y, line); y -= 20",
      "    c.showPage()",
      "c.save()",
    ]);
    wb = await startWorkbench();
    expect((await upload("field-guide.pdf", bytes)).status).toBe(201);
    expect((await search("wallcreeper limestone cliffs")).results[0]).toMatchObject({ source: "knowledge/field-guide.pdf", line: 2 });
    expect((await search("föhn winds valley")).results[0]).toMatchObject({ source: "knowledge/field-guide.pdf", line: 3 });
    const opened = await source("knowledge/field-guide.pdf");
    expect(opened).toMatchObject({ page_word: "page", pages: [{ page: 1 }, { page: 2 }, { page: 3 }] });
    expect(opened.text).toContain("Föhn winds warm the valley in spring.");
  });
});

describe("text in the encodings people save", () => {
  const TEXT = "Crème brûlée and café au lait — “quoted” notes about the naïve façade, 20 °C.\n";

  it.skipIf(!python)("UTF-8 with a BOM, UTF-16 with and without a BOM, Windows-1252 and Latin-1 all read as the same text", async () => {
    wb = await startWorkbench();
    const files: Record<string, string> = {
      "utf8-bom.txt": "utf-8-sig",
      "utf16-bom.txt": "utf-16",
      "utf16le-nobom.txt": "utf-16-le",
      "windows-1252.md": "cp1252",
    };
    for (const [name, encoding] of Object.entries(files)) {
      execFileSync(python!, ["-c", "import sys; open(sys.argv[1], 'w', encoding=sys.argv[2], newline='').write(sys.argv[3])", join(wb.dataRoot, "knowledge", name), encoding, TEXT]);
    }
    // Latin-1 has no curly quotes or dashes: its own text.
    const latin = "Crème brûlée and café au lait, notes about the naïve façade, 20 °C.\n";
    execFileSync(python!, ["-c", "import sys; open(sys.argv[1], 'w', encoding='latin-1').write(sys.argv[2])", join(wb.dataRoot, "knowledge", "latin1.txt"), latin]);
    await idle();
    for (const name of Object.keys(files)) expect((await source(`knowledge/${name}`)).text, name).toBe(TEXT);
    expect((await source("knowledge/latin1.txt")).text).toBe(latin);
    const found = (await search("crème brûlée façade")).results.map((r) => r.source).sort();
    expect(found).toEqual(["knowledge/latin1.txt", ...Object.keys(files).map((n) => `knowledge/${n}`)].sort());
    for (const hit of (await search("naïve façade")).results) expect(hit.text, hit.source).not.toContain("\uFFFD");
  });

  it.skipIf(!iconv)("a file converted by iconv to ISO-8859-15 reads right", async () => {
    const dir = await mkdtemp(join(tmpdir(), "moc-iconv-"));
    temps.push(dir);
    const text = "Le cœur du problème: l'œuvre coûte 5 € à la fenêtre.\n";
    await writeFile(join(dir, "in.txt"), text);
    const converted = execFileSync("iconv", ["-f", "UTF-8", "-t", "ISO-8859-15", join(dir, "in.txt")]);
    wb = await startWorkbench();
    await mkdir(join(wb.dataRoot, "knowledge"), { recursive: true });
    await writeFile(join(wb.dataRoot, "knowledge/oeuvre.txt"), converted);
    await idle();
    const read = (await source("knowledge/oeuvre.txt")).text;
    // The detector may name ISO-8859-1 or -15: the accented letters are the same in both; never a replacement character.
    expect(read).not.toContain("\uFFFD");
    expect(read).toContain("problème");
    expect(read).toContain("fenêtre");
  });
});
