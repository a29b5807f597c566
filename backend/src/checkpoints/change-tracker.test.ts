import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { seededRandom } from "../../test-support/seeded-random.js";
import { WRITABLE_DATA_DIRS } from "../sandbox/sandbox-profile.js";
import { ChangeTracker } from "./change-tracker.js";

/** Every file under the writable folders, read from disk: its content's hash and its mode. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const folder of WRITABLE_DATA_DIRS) {
    for (const entry of await readdir(join(root, folder), { withFileTypes: true, recursive: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const mode = (await stat(path)).mode & 0o7777;
      out.set(path.slice(root.length + 1), `${createHash("sha256").update(await readFile(path)).digest("hex")}:${mode.toString(8)}`);
    }
  }
  return out;
}

/** What changed between two snapshots, as `kind path` lines in path order. */
function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: Array<[string, string]> = [];
  for (const [path, now] of after) {
    const was = before.get(path);
    if (was === undefined) lines.push([path, "created"]);
    else if (was !== now) lines.push([path, "modified"]);
  }
  for (const path of before.keys()) if (!after.has(path)) lines.push([path, "deleted"]);
  return lines.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, kind]) => `${kind} ${path}`);
}

let root = "";
let tracker: ChangeTracker | null = null;
afterEach(async () => {
  await tracker?.close();
  tracker = null;
  if (root) await rm(root, { recursive: true, force: true });
});

describe("ChangeTracker", () => {
  it("records exactly what a full look at the disk finds changed, call after call, whatever the mix of writes, renames and removals", async () => {
    root = await mkdtemp(join(tmpdir(), "change-tracker-"));
    for (const folder of WRITABLE_DATA_DIRS) await mkdir(join(root, folder), { recursive: true });
    for (let d = 0; d < 4; d++) {
      await mkdir(join(root, "workspace", `d${d}`, "inner"), { recursive: true });
      for (let f = 0; f < 5; f++) await writeFile(join(root, "workspace", `d${d}`, `f${f}.txt`), `file ${d}/${f}`);
      await writeFile(join(root, "workspace", `d${d}`, "inner", "deep.txt"), `deep ${d}`);
    }
    tracker = new ChangeTracker(root, { warn() {} });
    await tracker.start();
    const next = seededRandom(20261127);
    const pick = <T,>(items: T[]): T => items[Math.floor(next() * items.length)];
    let made = 0;
    const files = async () => [...(await snapshot(root)).keys()];
    const dirs = async () =>
      (await readdir(join(root, "workspace"), { withFileTypes: true, recursive: true })).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
    // Each an operation a tool call might do: the scan after it must see it, however it was done.
    const operations: Array<() => Promise<unknown>> = [
      async () => writeFile(join(root, pick([...(await dirs()), "workspace", "memory"]), `new${made++}.txt`), `new ${made}`),
      async () => writeFile(join(root, pick(await files())), `rewritten ${next()}`),
      // The same size, the same bytes' count: only the content (and the change time) differ.
      async () => {
        const path = join(root, pick(await files()));
        const text = await readFile(path, "utf8");
        await writeFile(path, text.split("").reverse().join(""));
      },
      async () => rm(join(root, pick(await files()))),
      async () => chmod(join(root, pick(await files())), pick([0o600, 0o644, 0o755])),
      async () => rename(join(root, pick(await files())), join(root, pick([...(await dirs()), "workspace"]), `moved${made++}.txt`)),
      async () => {
        const all = (await dirs()).filter((d) => d !== "workspace");
        if (all.length) await rename(join(root, pick(all)), join(root, "workspace", `renamed${made++}`));
      },
      async () => {
        const all = (await dirs()).filter((d) => d !== "workspace");
        if (all.length) await rm(join(root, pick(all)), { recursive: true });
      },
      async () => {
        const dir = join(root, "workspace", `made${made++}`, "sub");
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, "x.txt"), "x");
      },
    ];
    for (let round = 0; round < 8; round++) {
      // Past the second within which every recent change is looked at again: earlier files are old now.
      await new Promise((r) => setTimeout(r, 1_100));
      const before = await snapshot(root);
      const { changes } = await tracker.record({ sessionId: "s1", turn: round + 1, callId: `c${round}`, tool: "terminal" }, async () => {
        for (let i = 0; i < 3; i++) await pick(operations)().catch(() => {});
      });
      const expected = diff(before, await snapshot(root));
      const recorded = (changes?.files ?? []).map((f) => `${f.kind} ${f.path}`);
      expect({ round, recorded }).toEqual({ round, recorded: expected });
    }
  }, 60_000);

  it("a restart reads again only the files that changed while it was down (read bytes, from /proc), and keeps what they were then", async () => {
    root = await mkdtemp(join(tmpdir(), "change-tracker-"));
    for (const folder of WRITABLE_DATA_DIRS) await mkdir(join(root, folder), { recursive: true });
    const block = (n: number) => Buffer.alloc(100 * 1024, n);
    for (let n = 0; n < 40; n++) await writeFile(join(root, "workspace", `big${n}.bin`), block(n));
    const readSoFar = async () => Number(/rchar:\s+(\d+)/.exec(await readFile("/proc/self/io", "utf8"))![1]);
    let before = await readSoFar();
    tracker = new ChangeTracker(root, { warn() {} });
    await tracker.start();
    const firstStart = (await readSoFar()) - before;
    await tracker.close();
    // While it is down: one file rewritten, one removed.
    await writeFile(join(root, "workspace", "big0.bin"), block(200));
    await rm(join(root, "workspace", "big1.bin"));
    before = await readSoFar();
    tracker = new ChangeTracker(root, { warn() {} });
    await tracker.start();
    const secondStart = (await readSoFar()) - before;
    expect(firstStart).toBeGreaterThan(4_000_000);
    // The rewritten file (100 kB), the saved index and the session logs; not the 38 files that stayed.
    expect(secondStart).toBeLessThan(600_000);
    const { changes } = await tracker.record({ sessionId: "s1", turn: 1, callId: "c1", tool: "terminal" }, async () => {
      await writeFile(join(root, "workspace", "big0.bin"), block(201));
      await writeFile(join(root, "workspace", "big2.bin"), block(202));
    });
    expect(changes?.files.map((f) => `${f.kind} ${f.path} ${f.restorable}`)).toEqual(["modified workspace/big0.bin true", "modified workspace/big2.bin true"]);
    const [call] = await tracker.calls("s1");
    // What each was before the call: the rewrite made while the store was down, and the content kept by the first run.
    expect((await tracker.blobs.get(call.files[0].before!)).equals(block(200))).toBe(true);
    expect((await tracker.blobs.get(call.files[1].before!)).equals(block(2))).toBe(true);
  });
});
