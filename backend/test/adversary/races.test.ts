/**
 * Writes a racing process cannot redirect (issue 27). A python process swaps folders the server is
 * writing into with links to a folder outside the data root, with renameat2(RENAME_EXCHANGE) in a
 * tight loop, as a sandboxed tool can: `workspace/race/sub` while the server saves files into it,
 * and every `skills/.installing-*` staging folder while it installs skills. For 20 s of that,
 * nothing may be written or moved outside the data root, and no installed skill may hold what was
 * outside.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { postJson, startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

const RACER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
root, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
def exchange(a, b):
    return libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_EXCHANGE) == 0
race = os.path.join(root, "workspace", "race")
sub, sublink = os.path.join(race, "sub"), os.path.join(race, "sublink")
skills = os.path.join(root, "skills")
os.makedirs(sub, exist_ok=True)
os.symlink(outside, sublink)
swaps = 0
end = time.time() + seconds
while time.time() < end:
    if exchange(sub, sublink): swaps += 1
    try:
        names = os.listdir(skills)
    except OSError:
        continue
    for name in names:
        if name.startswith(".installing-"):
            evil = os.path.join(skills, ".evil" + name)
            try:
                os.symlink(outside, evil)
            except FileExistsError:
                pass
            if exchange(os.path.join(skills, name), evil): swaps += 1
print(swaps)
`;

/** Every file under `dir` with its content, for a before/after comparison. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = await readFile(path, "utf8");
  }
  return out;
}

let wb: Workbench | undefined;
let outside = "";
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe("a process swapping folders for links while the server writes", () => {
  it("20 s of renameat2 exchanges: every save and install lands inside the data root or fails; nothing outside changes", async () => {
    wb = await startWorkbench();
    outside = await mkdtemp(join(tmpdir(), "moc-outside-"));
    // What an install could be tricked into moving in: a folder named like the skill being installed.
    for (let i = 0; i < 400; i++) {
      await mkdir(join(outside, `raced-${i}`), { recursive: true });
      await writeFile(join(outside, `raced-${i}`, "SKILL.md"), "---\nname: outside\ndescription: OUTSIDE the data root\n---\nOUTSIDE\n");
    }
    await writeFile(join(outside, "secret.txt"), "outside, untouched");
    const before = await snapshot(outside);

    const racer = spawn("python3", ["-c", RACER, wb.dataRoot, outside, "20"], { stdio: ["ignore", "pipe", "pipe"] });
    let swaps = "";
    let errors = "";
    racer.stdout.on("data", (c: Buffer) => (swaps += c));
    racer.stderr.on("data", (c: Buffer) => (errors += c));
    const raced = new Promise<number | null>((resolve) => racer.on("exit", resolve));
    await new Promise((r) => setTimeout(r, 300));

    const statuses: Record<string, number> = {};
    const count = (kind: string, status: number) => (statuses[`${kind} ${status}`] = (statuses[`${kind} ${status}`] ?? 0) + 1);
    const until = Date.now() + 19_000;
    let n = 0;
    const saves = (async () => {
      for (let i = 0; Date.now() < until; i++) {
        const response = await postJson(`${wb!.url}/api/files`, { path: `workspace/race/sub/deeper-${i % 3}/file-${i}.txt`, content: `inside ${i}` });
        count("save", response.status);
        await response.text();
      }
    })();
    const installs = (async () => {
      for (; Date.now() < until && n < 400; n++) {
        const archive = zipSync({ [`raced-${n}/SKILL.md`]: new TextEncoder().encode(`---\nname: raced-${n}\ndescription: installed while racing\n---\nINSIDE\n`) });
        const response = await fetch(`${wb!.url}/api/skills/install?filename=raced-${n}.zip`, { method: "POST", headers: { "content-type": "application/zip" }, body: archive });
        count("install", response.status);
        await response.text();
      }
    })();
    await Promise.all([saves, installs]);
    expect(await raced, errors).toBe(0);
    console.log(`race: ${swaps.trim()} exchanges; ${JSON.stringify(statuses)}`);

    // Nothing outside was written, removed or moved in.
    expect(await snapshot(outside)).toEqual(before);
    // Every installed skill is the one sent, never the outside folder.
    for (const name of (await readdir(join(wb.dataRoot, "skills"))).filter((x) => x.startsWith("raced-"))) {
      const text = await readFile(join(wb.dataRoot, "skills", name, "SKILL.md"), "utf8").catch(() => "");
      expect({ name, outside: text.includes("OUTSIDE") }).toEqual({ name, outside: false });
    }
    // The race really ran against both, and some of each got through.
    expect(Number(swaps.trim())).toBeGreaterThan(1000);
    expect(statuses["save 200"] ?? 0).toBeGreaterThan(0);
    expect(statuses["install 201"] ?? 0).toBeGreaterThan(0);
    // Every refusal is a clear client error, never a 500.
    expect(Object.keys(statuses).filter((k) => k.endsWith(" 500"))).toEqual([]);
  }, 60_000);
});
