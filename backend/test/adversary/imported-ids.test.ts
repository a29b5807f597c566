/**
 * An exported session is a file anyone can edit before it is imported. One whose event id is set to
 * 2^53 - 1 (the largest integer JavaScript counts exactly) must not set the server's clock: every
 * later event of every session would go out as 2^53, fail validation when read back, and leave
 * sessions with questions and no answers, also after a restart. Nor may one bad line hide the
 * entries around it.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionExport } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { chat, entryKinds, fetchSession, postJson, sessionIdOf, startWorkbench, storedEvents, type Workbench } from "../../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const idsOf = (entries: Array<{ type: string; id?: number; first_id?: number }>) =>
  entries.flatMap((e) => (e.type === "event" ? [e.id, e.first_id].filter((x): x is number => x !== undefined) : []));

describe("an imported session", () => {
  it("with an event id at 2^53 - 1: its ids are rewritten, the clock stays, and every later answer is stored and shown, also after a restart", async () => {
    wb = await startWorkbench({ script: () => ({ content: "An answer." }) });
    const original = sessionIdOf(await chat(wb, "first question"));
    const exported = (await (await fetch(`${wb.url}/api/sessions/${original}/export?format=json`)).json()) as SessionExport;
    const event = exported.entries.find((e) => e.type === "event")!;
    (event as { id?: number }).id = Number.MAX_SAFE_INTEGER;
    const imported = await postJson(`${wb.url}/api/sessions/import`, exported, { headers: { origin: wb.url } });
    expect(imported.status).toBe(201);
    const importedId = ((await imported.json()) as { id: string }).id;
    const stored = await fetchSession(wb.url, importedId);
    for (const id of idsOf(stored.entries)) expect(id).toBeLessThan(1_000_000);

    // A turn in the imported session, and one in a brand-new session: ids stay exact integers.
    await chat(wb, "and in the imported one?", importedId);
    const fresh = sessionIdOf(await chat(wb, "a new session"));
    for (const session of [importedId, fresh, original]) {
      const detail = await fetchSession(wb.url, session);
      expect(storedEvents(detail.entries).filter((e) => e.type === "final").length, session).toBeGreaterThan(0);
      for (const id of idsOf(detail.entries)) expect(Number.isSafeInteger(id) && id < Number.MAX_SAFE_INTEGER - 2 ** 40).toBe(true);
      // Every line of the file reads back as an entry.
      const lines = (await readFile(join(wb.dataRoot, "sessions", `${session}.jsonl`), "utf8")).trim().split("\n");
      expect(lines.every((l) => !/"id":9007199254740992/.test(l))).toBe(true);
    }

    // After a restart, the same.
    const { dataRoot, model } = wb;
    await wb.app.close();
    wb = await startWorkbench({ dataRoot, model });
    await chat(wb, "after the restart", fresh);
    const reread = await fetchSession(wb.url, fresh);
    expect(storedEvents(reread.entries).filter((e) => e.type === "final")).toHaveLength(2);
  });

  it("a line that fails validation hides nothing around it, and an id past 2^53 written before is dropped, not the event", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Shown." }) });
    const id = sessionIdOf(await chat(wb, "question one"));
    const file = join(wb.dataRoot, "sessions", `${id}.jsonl`);
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    const finalAt = lines.findIndex((l) => l.includes('"type":"final"'));
    // A garbage line before the answer, and the answer's id as the old clock would have written it.
    const final = JSON.parse(lines[finalAt]) as { id?: number };
    final.id = 9007199254740992;
    lines.splice(finalAt, 1, '{"type":"event","turn":1,"event":{"type":"nonsense"}}', JSON.stringify(final));
    await writeFile(file, `${lines.join("\n")}\n`);
    await appendFile(file, "not json at all\n");
    const detail = await fetchSession(wb.url, id);
    expect(entryKinds(detail.entries)).toEqual(expect.arrayContaining(["user", "final"]));
    expect(storedEvents(detail.entries).find((e) => e.type === "final")).toMatchObject({ content: "Shown." });
    // And the session takes a new turn, its ids above the ones it kept.
    await chat(wb, "question two", id);
    expect(storedEvents((await fetchSession(wb.url, id)).entries).filter((e) => e.type === "final")).toHaveLength(2);
  });
});
