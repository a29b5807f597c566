/**
 * The agent as the adversary, after the record of what it changed (the undo of every file change):
 * a flood of files that makes the scan stop at its cap, names that are not UTF-8, a store filled past
 * its cap by small files, and mode bits. Each through real turns in the real sandbox: a change the
 * record cannot know is said ("not tracked: …"), never silently missing; what it says it put back is
 * what is on disk.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ChangesEvent, ChatEvent, RewindReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, lastMessage, messageText } from "../../test-support/scripted-model-server.js";
import { MAX_SCANNED_PER_ROOT } from "../../src/checkpoints/tree-scan.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";
import { chat, postJson, sessionIdOf, startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

const { available } = sandboxExpected();
if (!available) console.warn("\n!!! change-record attacks SKIPPED: bubblewrap is missing (apt-get install bubblewrap) !!!\n");

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

type Call = { name: string; args: Record<string, unknown> };
const terminal = (command: string): Call => ({ name: "terminal", args: { command } });
const python = (code: string): Call => ({ name: "python_repl", args: { code } });
/** Each message names the calls its turn makes, one per step; then the turn answers. */
const byMessage = (plans: Record<string, Call[]>) => (body: ChatRequestBody) => {
  const first = body.messages.findLastIndex((m) => m.role === "user");
  // A message after a rewind comes with a note of what was put back, ahead of the user's words.
  const text = messageText(body.messages[first].content).trim();
  const calls = Object.entries(plans).find(([key]) => text === key || text.endsWith(`\n${key}`))?.[1] ?? [];
  const done = body.messages.slice(first).filter((m) => m.role === "tool").length;
  return done < calls.length ? { toolCalls: [calls[done]] } : { content: "done" };
};
const changesOf = (events: ChatEvent[]) => events.filter((e): e is ChangesEvent => e.type === "changes");
const rewind = (wb: Workbench, id: string, body: unknown) => postJson(`${wb.url}/api/sessions/${id}/rewind`, body, { headers: { origin: wb.url } });
const turnOf = (events: ChatEvent[]) => (events.find((e) => e.type === "session") as { turn: number }).turn;

/** Blocks and files under a folder, as `du` and `find | wc -l` would count them. */
async function diskUse(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const info = await stat(join(entry.parentPath, entry.name));
    bytes += info.blocks * 512;
    if (entry.isFile()) files++;
  }
  return { bytes, files };
}

describe.skipIf(!available)("the change record under attack", () => {
  it("a flood of files past the scan's budget in one folder hides no change in another: the next call is recorded and Rewind puts it back", async () => {
    wb = await startWorkbench({
      env: { TOOL_TIMEOUT_MS: "120000" },
      script: byMessage({
        // The attack found 200,010 files past a cap of 200,000; each writable folder now has its own budget.
        flood: [python(`import os\nos.makedirs('memory/.junk', exist_ok=True)\nfor i in range(${MAX_SCANNED_PER_ROOT + 10}):\n    open(f'memory/.junk/{i}', 'w').close()\nprint('flooded')`)],
        sabotage: [terminal("echo PWNED > workspace/USER.md; rm workspace/SOUL.md")],
      }),
    });
    const userBefore = await readFile(join(wb.dataRoot, "workspace/USER.md"), "utf8");
    const soulBefore = await readFile(join(wb.dataRoot, "workspace/SOUL.md"), "utf8");
    let slowest = 0;
    let flooding = true;
    const sampling = (async () => {
      while (flooding) {
        const t = performance.now();
        await fetch(`${wb!.url}/api/health`).then((r) => r.text());
        slowest = Math.max(slowest, performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const flood = await chat(wb, "flood");
    flooding = false;
    await sampling;
    console.log(`slowest /api/health answer during the flood: ${slowest.toFixed(0)} ms`);
    const id = sessionIdOf(flood);
    expect(flood.find((e) => e.type === "tool_result")).toMatchObject({ ok: true, output: expect.stringContaining("flooded") });
    // The flood's own call says what it could not follow, and lists a part of what it made.
    const [flooded] = changesOf(flood);
    expect(flooded.files.length).toBeLessThanOrEqual(500);
    expect(flooded.more).toBeGreaterThan(1000);
    expect(flooded.untracked?.join("\n")).toMatch(/memory\/\.junk\/: it holds more entries than can be read/);
    const sabotage = await chat(wb, "sabotage", id);
    const [changes] = changesOf(sabotage);
    expect(changes.files).toEqual([
      expect.objectContaining({ path: "workspace/SOUL.md", kind: "deleted", restorable: true }),
      expect.objectContaining({ path: "workspace/USER.md", kind: "modified", restorable: true }),
    ]);
    const reply = await rewind(wb, id, { turn: turnOf(sabotage), files: true });
    expect(reply.status).toBe(200);
    const rewound = (await reply.json()) as RewindReply;
    expect(rewound.files.restored.sort()).toEqual(["workspace/SOUL.md", "workspace/USER.md"]);
    expect(await readFile(join(wb.dataRoot, "workspace/USER.md"), "utf8")).toBe(userBefore);
    expect(await readFile(join(wb.dataRoot, "workspace/SOUL.md"), "utf8")).toBe(soulBefore);
  }, 240_000);

  it("names that are not UTF-8 are listed as not tracked, kept apart, and never reported removed while they stay", async () => {
    wb = await startWorkbench({
      script: byMessage({ plant: [terminal("printf one > \"workspace/plant$(printf '\\351').md\"; printf two > \"workspace/plant$(printf '\\350').md\"; echo ok > workspace/fine.md")] }),
    });
    const events = await chat(wb, "plant");
    const id = sessionIdOf(events);
    const [changes] = changesOf(events);
    // The well-named file is recorded; the two others are named, apart, as not tracked.
    expect(changes.files.map((f) => f.path)).toEqual(["workspace/fine.md"]);
    expect(changes.untracked).toEqual([expect.stringContaining("workspace/plant\\xe8.md"), expect.stringContaining("workspace/plant\\xe9.md")]);
    for (const line of changes.untracked ?? []) expect(line).toMatch(/not UTF-8/);
    const rewound = (await (await rewind(wb, id, { turn: turnOf(events), files: true })).json()) as RewindReply;
    expect(rewound.files.removed).toEqual(["workspace/fine.md"]);
    expect(rewound.files.untracked).toEqual(changes.untracked);
    // They are still there, byte for byte, and no "removed" was claimed for them.
    const left = (await readdir(join(wb.dataRoot, "workspace"), { encoding: "buffer" })).map((n) => n.toString("latin1")).filter((n) => n.startsWith("plant"));
    expect(left.sort()).toEqual(["plant\xe8.md", "plant\xe9.md"]);
  });

  it("the store's cap bounds what it puts on disk (blocks, files and records), however small the files, pruning the oldest first", async () => {
    const write = python("import os\nos.makedirs('workspace/many', exist_ok=True)\nfor i in range(10000):\n    open(f'workspace/many/{i}.txt', 'w').write(f'{i} {os.urandom(8).hex()}')\nprint('written')");
    const remove = python("import shutil\nshutil.rmtree('workspace/many')\nprint('removed')");
    wb = await startWorkbench({ env: { CHECKPOINTS_MAX_MB: "5", TOOL_TIMEOUT_MS: "120000" }, script: byMessage({ churn: [write, remove, write, remove, write, remove], last: [terminal("echo last > workspace/last.md")] }) });
    const churn = await chat(wb, "churn");
    expect(churn.filter((e) => e.type === "tool_result" && e.ok)).toHaveLength(6);
    const used = await diskUse(join(wb.dataRoot, ".checkpoints"));
    console.log(`.checkpoints after the churn: ${(used.bytes / 1024 / 1024).toFixed(1)} MB in ${used.files} files`);
    expect(used.bytes).toBeLessThan(6 * 1024 * 1024);
    expect(used.files).toBeLessThan(1_500);
    // The newest call is still recorded and can be put back.
    const last = await chat(wb, "last", sessionIdOf(churn));
    expect(changesOf(last)[0].files).toEqual([expect.objectContaining({ path: "workspace/last.md", kind: "created", restorable: true })]);
  }, 240_000);

  it("changes no folder event reports are recorded under their call: a write through a shared mapping, a folder moved with its old files, a rewrite given an old time", async () => {
    // inotify reports no event for a write through mmap; a moved folder's files keep their change times.
    const mapped = python("import mmap\nwith open('workspace/deep/mapped.txt', 'r+b') as f:\n    m = mmap.mmap(f.fileno(), 0)\n    m[:4] = b'bbbb'\n    m.flush()\n    m.close()\nprint('mapped')");
    const dated = python("import os\nopen('workspace/dated.txt', 'w').write('new')\nos.utime('workspace/dated.txt', (946684800, 946684800))\nprint('dated')");
    wb = await startWorkbench({
      script: byMessage({
        make: [terminal("mkdir -p workspace/deep workspace/notes/inner && printf aaaa > workspace/deep/mapped.txt && printf old > workspace/dated.txt && printf one > workspace/notes/a.md && printf two > workspace/notes/inner/b.md")],
        // A rename within one folder the sandbox mounts (across two, mv copies: new files).
        sneak: [mapped, terminal("mv workspace/notes workspace/moved"), dated, terminal("rm -r workspace/moved/inner && rm workspace/moved/a.md workspace/deep/mapped.txt && rmdir workspace/deep")],
      }),
    });
    const id = sessionIdOf(await chat(wb, "make"));
    // Past the second within which a scan looks again at every recent change: the files are old now.
    await new Promise((r) => setTimeout(r, 1_500));
    const sneak = await chat(wb, "sneak", id);
    expect(sneak.filter((e) => e.type === "tool_result" && e.ok)).toHaveLength(4);
    const listed = changesOf(sneak).map((c) => c.files.map((f) => `${f.kind} ${f.path}`));
    expect(listed).toEqual([
      ["modified workspace/deep/mapped.txt"],
      ["created workspace/moved/a.md", "created workspace/moved/inner/b.md", "deleted workspace/notes/a.md", "deleted workspace/notes/inner/b.md"],
      ["modified workspace/dated.txt"],
      ["deleted workspace/deep/mapped.txt", "deleted workspace/moved/a.md", "deleted workspace/moved/inner/b.md"],
    ]);
    for (const c of changesOf(sneak)) expect(c.untracked).toBeUndefined();
    const reply = await rewind(wb, id, { turn: turnOf(sneak), files: true });
    expect(reply.status).toBe(200);
    const read = (rel: string) => readFile(join(wb!.dataRoot, rel), "utf8");
    expect([await read("workspace/deep/mapped.txt"), await read("workspace/dated.txt"), await read("workspace/notes/a.md"), await read("workspace/notes/inner/b.md")]).toEqual(["aaaa", "old", "one", "two"]);
    await expect(stat(join(wb.dataRoot, "workspace/moved/a.md"))).rejects.toThrow(/ENOENT/);
  });

  it("Revert and Rewind put the mode bits back too, and a change of mode alone is a change", async () => {
    wb = await startWorkbench({
      script: byMessage({
        make: [terminal("printf secret > workspace/secret.txt && chmod 600 workspace/secret.txt && printf '#!/bin/sh\\necho hi\\n' > workspace/run.sh && chmod 755 workspace/run.sh")],
        change: [terminal("printf changed > workspace/secret.txt && chmod 644 workspace/secret.txt && printf 'echo bye\\n' > workspace/run.sh && chmod 644 workspace/run.sh")],
        open: [terminal("chmod 666 workspace/secret.txt")],
      }),
    });
    const id = sessionIdOf(await chat(wb, "make"));
    const mode = async (rel: string) => (await stat(join(wb!.dataRoot, rel))).mode & 0o777;
    expect([await mode("workspace/secret.txt"), await mode("workspace/run.sh")]).toEqual([0o600, 0o755]);
    const changed = await chat(wb, "change", id);
    const rewound = await rewind(wb, id, { turn: turnOf(changed), files: true });
    expect(rewound.status).toBe(200);
    expect(await readFile(join(wb.dataRoot, "workspace/secret.txt"), "utf8")).toBe("secret");
    expect([await mode("workspace/secret.txt"), await mode("workspace/run.sh")]).toEqual([0o600, 0o755]);
    // chmod alone: recorded as a modification, and Revert restores the mode.
    const opened = await chat(wb, "open", id);
    const [only] = changesOf(opened);
    expect(only.files).toEqual([expect.objectContaining({ path: "workspace/secret.txt", kind: "modified", restorable: true })]);
    expect(await mode("workspace/secret.txt")).toBe(0o666);
    const reverted = await postJson(`${wb.url}/api/changes/revert`, { change: only.change, path: "workspace/secret.txt" }, { headers: { origin: wb.url } });
    expect(reverted.status).toBe(200);
    expect(await mode("workspace/secret.txt")).toBe(0o600);
    expect(messageText(lastMessage(wb.model.requests.at(-1)!.body).content)).toBeTruthy();
  });
});
