/**
 * The agent as the adversary, after file ownership. As root, the server hands the folders it
 * creates to the sandbox user; the sandbox races it by swapping a just-created folder for a link
 * to a root-owned folder outside. Ownership may only ever change on a descriptor.
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttackedServer, startAttackedServer } from "../../test-support/adversary.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";

const isRoot = process.getuid?.() === 0;
const { available } = sandboxExpected();
if (!isRoot || !available) console.warn("\n!!! SKIPPING the ownership race: it needs root and bubblewrap (the server only changes owners as root) !!!\n");

describe.skipIf(!isRoot || !available)("folders created by the file API while the sandbox swaps them for links", () => {
  let s: AttackedServer;
  let outside: string;

  beforeAll(async () => {
    s = await startAttackedServer();
    outside = join(s.dataRoot, "..", "root-owned");
    await mkdir(join(outside, "sub"), { recursive: true });
    await writeFile(join(outside, "victim.txt"), "root's");
    await writeFile(join(outside, "sub", "file.md"), "root's");
  });
  afterAll(async () => s?.close());

  it("never hands a folder or file outside the data root to the sandbox user", async () => {
    // Raw syscalls in a tight loop: move each just-made folder aside and put a link in its place.
    const racing = s.plant(
      "python3 - <<'EOF'\n" +
        "import os, time\n" +
        "end, i = time.time() + 8, 0\n" +
        "while time.time() < end:\n" +
        "    i += 1\n" +
        "    for n in range(3):\n" +
        "        try:\n" +
        "            os.rename(f'memory/race{n}', f'memory/.gone-{n}-{i}')\n" +
        `            os.symlink('${outside}', f'memory/race{n}')\n` +
        "        except OSError:\n" +
        "            pass\n" +
        "    if i % 50 == 0:\n" +
        "        for n in range(3):\n" +
        "            try: os.unlink(f'memory/race{n}')\n" +
        "            except OSError: pass\n" +
        "EOF",
      30_000,
    );
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const reply = await s.request("/api/files", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: `memory/race${i % 3}/sub/file.md`, content: `attempt ${i}` }),
      });
      statuses.add(reply.status);
    }
    await racing;
    for (const path of [outside, join(outside, "sub"), join(outside, "victim.txt"), join(outside, "sub", "file.md")]) {
      expect((await stat(path)).uid, path).toBe(0);
    }
    // Every answer was a save or a clear refusal, never a crash.
    expect([...statuses].every((code) => code === 200 || code === 403 || code === 409 || code === 400), [...statuses].join(",")).toBe(true);
    expect(await s.leaks()).toEqual([]);
  }, 60_000);
});
