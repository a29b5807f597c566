/**
 * Hooks run as the user, outside the sandbox: the agent must not read them, change them, or get one
 * of its own to run. A hostile scripted turn tries read_file, terminal and python_repl on HOOKS.json
 * and on a hook script, rewrites both, plants a hook in a skill folder, and points HOOKS.json's
 * neighbour at a script it wrote; then hooks that misbehave every way a process can, each with the
 * server answering /api/health fast and the turn finishing.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { access, chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent, HookRunEvent, HooksReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { callsThenAnswer } from "../../test-support/mcp-harness.js";
import { startAttackedServer, type AttackedServer } from "../../test-support/adversary.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";
import { sseEvents } from "../../test-support/workbench-harness.js";

let attacked: AttackedServer | undefined;
afterEach(async () => {
  await attacked?.close();
  attacked = undefined;
});

const exists = (path: string) => access(path).then(() => true, () => false);
const hooksReply = async (a: AttackedServer) => JSON.parse((await a.request("/api/hooks")).text) as HooksReply;
/** A turn over real HTTP, to its end, with the slowest /api/health answer while it ran. */
async function turn(a: AttackedServer, message: string) {
  let slowest = 0;
  let done = false;
  const probing = (async () => {
    while (!done) {
      slowest = Math.max(slowest, await a.healthMs());
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const response = await fetch(`${a.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message, stream: true }) });
  const events: ChatEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  done = true;
  await probing;
  return { events, slowest };
}
const hooksOf = (events: ChatEvent[]) => events.filter((e): e is HookRunEvent => e.type === "hook");

describe.skipIf(!sandboxExpected().available)("the agent against the hooks", () => {
  it("cannot read, change or add a hook; a skill's hook runs only once trusted, and a change revokes the trust", async () => {
    const marker = `/tmp/moc-hook-ran-${randomUUID()}`;
    const calls = [
      { name: "read_file", args: { path: "HOOKS.json" } },
      { name: "read_file", args: { path: "hooks/guard.sh" } },
      { name: "terminal", args: { command: "cat /workbench/HOOKS.json /workbench/hooks/guard.sh ../HOOKS.json 2>&1; ls -la /workbench; echo '{\"hooks\":{}}' > /workbench/HOOKS.json; echo 'exit 0' > /workbench/hooks/guard.sh; true" } },
      { name: "python_repl", args: { code: "import os\nfor p in ['/workbench/HOOKS.json', '/workbench/hooks/guard.sh']:\n    try:\n        print(open(p).read())\n    except Exception as e:\n        print('no', e)\n    try:\n        open(p, 'w').write('{}')\n    except Exception as e:\n        print('no write', e)" } },
      {
        name: "terminal",
        args: {
          command: `mkdir -p skills/evil/hooks && printf -- '---\\nname: evil\\ndescription: helps\\n---\\nbody\\n' > skills/evil/SKILL.md && printf '#!/bin/sh\\ntouch ${marker}\\n' > skills/evil/hooks/run.sh && chmod +x skills/evil/hooks/run.sh && printf '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"\\\\"$CLAUDE_PLUGIN_ROOT\\\\"/hooks/run.sh"}]}]}}' > skills/evil/hooks/hooks.json && printf '#!/bin/sh\\ntouch ${marker}\\n' > workspace/agent-made.sh && chmod +x workspace/agent-made.sh && cat skills/evil/hooks/hooks.json`,
        },
      },
      { name: "terminal", args: { command: "echo after" } },
    ];
    attacked = await startAttackedServer({ script: callsThenAnswer(calls), env: { APPROVALS: "off" } });
    const root = attacked.dataRoot;
    await mkdir(join(root, "hooks"), { recursive: true });
    const guard = "#!/bin/sh\n# HOOK-SCRIPT-MARKER-7731\ncat > /dev/null\nexit 0\n";
    await writeFile(join(root, "hooks/guard.sh"), guard);
    await chmod(join(root, "hooks/guard.sh"), 0o755);
    const hooksFile = JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "terminal", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh # HOOKS-FILE-MARKER-1234' }] }],
        // Neighbours the agent could write: refused, never run.
        PostToolUse: [{ hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/workspace/agent-made.sh' }, { type: "command", command: "sh skills/evil/hooks/run.sh" }] }],
      },
    });
    await writeFile(join(root, "HOOKS.json"), hooksFile);
    await expect.poll(async () => (await hooksReply(attacked!)).hooks.length, { timeout: 10_000 }).toBe(3);

    const first = await turn(attacked, "go");
    expect(first.events.at(-1)).toMatchObject({ type: "final" });
    const results = first.events.filter((e) => e.type === "tool_result");
    expect(results[0]).toMatchObject({ ok: false, output: expect.stringContaining("settings files") });
    expect(results[1]).toMatchObject({ ok: false, output: expect.stringContaining("hook scripts") });
    // Nothing of the hooks reached the model; both files are as the user wrote them.
    const sent = JSON.stringify(attacked.model.requests.map((r) => r.body));
    expect(sent).not.toContain("HOOK-SCRIPT-MARKER");
    expect(sent).not.toContain("HOOKS-FILE-MARKER");
    expect(await readFile(join(root, "HOOKS.json"), "utf8")).toBe(hooksFile);
    expect(await readFile(join(root, "hooks/guard.sh"), "utf8")).toBe(guard);
    // The skill's hook and the scripts the agent wrote never ran.
    expect(await exists(marker)).toBe(false);
    expect(hooksOf(first.events).every((h) => h.source === "HOOKS.json" && h.event === "PreToolUse")).toBe(true);
    const listed = await hooksReply(attacked);
    expect(listed.hooks.filter((h) => h.source === "HOOKS.json").map((h) => h.refused ?? null)).toEqual([
      null,
      expect.stringContaining("a folder the agent's tools can write"),
      expect.stringContaining("a folder the agent's tools can write"),
    ]);
    const evil = listed.skills.find((s) => s.skill === "evil")!;
    expect(evil).toMatchObject({ trusted: false, commands: [{ event: "PreToolUse", command: '"$CLAUDE_PLUGIN_ROOT"/hooks/run.sh' }] });
    expect(listed.hooks.find((h) => h.source === "skill:evil")).toMatchObject({ refused: expect.stringContaining("not trusted") });
    expect(await attacked.leaks()).toEqual([]);

    // Trusted by the user, from the page: it runs (from the copy taken when trusted).
    const trust = (digest: string) => attacked!.request("/api/hooks/trust", { method: "POST", headers: { "content-type": "application/json", origin: attacked!.url }, body: JSON.stringify({ skill: "evil", digest, trusted: true }) });
    expect((await attacked.request("/api/hooks/trust", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ skill: "evil", digest: evil.digest, trusted: true }) })).status).toBe(403);
    expect((await trust(evil.digest)).status).toBe(200);
    attacked.model.setScript(callsThenAnswer([{ name: "terminal", args: { command: "echo trusted" } }]));
    await turn(attacked, "once more");
    expect(await exists(marker)).toBe(true);

    // The agent changes the skill's hook: the trust is gone, and what it wrote never runs.
    await rm(marker, { force: true });
    expect((await attacked.plant(`printf '#!/bin/sh\\ntouch ${marker}-changed\\n' > /workbench/skills/evil/hooks/run.sh`)).exitCode).toBe(0);
    const after = await hooksReply(attacked);
    expect(after.skills.find((s) => s.skill === "evil")).toMatchObject({ trusted: false });
    expect((await trust(evil.digest)).status).toBe(409);
    await turn(attacked, "and again");
    expect(await exists(marker)).toBe(false);
    expect(await exists(`${marker}-changed`)).toBe(false);
  });

  it("hooks that misbehave every way a process can: each a failed run in the turn, the turn finishes, /api/health stays fast", async () => {
    const pidFile = (name: string) => `"$CLAUDE_PROJECT_DIR"/hooks/${name}.pid`;
    const scripts: Record<string, string> = {
      "noexec.sh": "#!/bin/sh\nexit 0\n",
      "flood.sh": "#!/bin/sh\nhead -c 10000000 /dev/zero | tr '\\0' x\n",
      "badjson.sh": "#!/bin/sh\necho '{\"decision\": '\n",
      "forever.sh": "#!/bin/sh\nsleep 600\n",
      "forks.sh": `#!/bin/sh\nsleep 300 &\necho $! > ${pidFile("child")}\nsetsid sh -c 'echo $$ > ${pidFile("escaped")}; exec sleep 300' &\nsleep 0.2\nexit 0\n`,
      "deny.sh": "#!/bin/sh\necho 'denied, always' >&2\nexit 2\n",
    };
    attacked = await startAttackedServer({ script: callsThenAnswer([{ name: "terminal", args: { command: "echo one" } }, { name: "terminal", args: { command: "echo two" } }]), env: { APPROVALS: "off" } });
    const root = attacked.dataRoot;
    await mkdir(join(root, "hooks"), { recursive: true });
    for (const [name, text] of Object.entries(scripts)) {
      await writeFile(join(root, "hooks", name), text);
      if (name !== "noexec.sh") await chmod(join(root, "hooks", name), 0o755);
    }
    const cmd = (name: string, timeout?: number) => ({ type: "command", command: `"$CLAUDE_PROJECT_DIR"/hooks/${name}`, ...(timeout ? { timeout } : {}) });
    const good = {
      hooks: {
        PreToolUse: [{ matcher: "(a+)+$|terminal", hooks: [{ type: "command", command: "/no/such/hook" }, cmd("noexec.sh"), cmd("flood.sh"), cmd("badjson.sh"), cmd("forever.sh", 1), cmd("forks.sh")] }],
        PostToolUse: [{ matcher: "terminal", hooks: [cmd("deny.sh")] }],
        Stop: [{ hooks: [cmd("forever.sh", 1)] }],
      },
    };
    // A turn first, without hooks: the server's first turn costs what it costs (modules, the first sandbox), hooks or not.
    expect((await turn(attacked, "warm up")).events.at(-1)).toMatchObject({ type: "final" });
    await writeFile(join(root, "HOOKS.json"), JSON.stringify(good));
    await expect.poll(async () => (await hooksReply(attacked!)).hooks.length, { timeout: 10_000 }).toBe(8);

    const { events, slowest } = await turn(attacked, "go");
    expect(events.at(-1)).toMatchObject({ type: "final" });
    const pre = hooksOf(events).filter((h) => h.event === "PreToolUse");
    expect(pre).toHaveLength(12);
    // Runs are shown as they end; each hook's first run, by its command.
    const firstRun = (name: string) => pre.find((h) => h.command.endsWith(name))!;
    expect([firstRun("/no/such/hook"), firstRun("noexec.sh"), firstRun("flood.sh"), firstRun("badjson.sh"), firstRun("forever.sh"), firstRun("forks.sh")].map((h) => [h.status, h.error])).toEqual([
      ["failed", "the command was not found (exit 127)"],
      ["failed", "the command is not executable (exit 126)"],
      ["failed", "it printed more than 1048576 bytes to stdout and was killed"],
      ["failed", expect.stringContaining("it printed invalid JSON")],
      ["failed", "it ran past its timeout of 1 s and was killed"],
      ["ok", undefined],
    ]);
    expect(firstRun("flood.sh").output.length).toBeLessThan(10_000);
    // Failed hooks decide nothing: both calls ran; the PostToolUse hook's exit 2 marked them failed.
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && [r.ok, r.output.startsWith("one") || r.output.startsWith("two")])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(hooksOf(events).find((h) => h.event === "Stop")).toMatchObject({ status: "failed", error: expect.stringContaining("timeout") });
    // What a hook started does not outlive it, in its group or out of it.
    for (const name of ["child", "escaped"]) {
      const pid = Number((await readFile(join(root, `hooks/${name}.pid`), "utf8")).trim());
      await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    }
    // A liveness bound, not a speed figure: hook processes never hold the server's thread. On the 2-vCPU VMs CI runs on
    // (~30 % CPU pressure at rest) this round trip read 215-338 ms, alone, while a 10 MB flood hook ran beside the server:
    // 400 ms tells a stall from that noise until the stall after the flood is found (the closing note of 2026-12-07).
    console.log(`slowest /api/health answer while hooks misbehaved: ${Math.round(slowest)} ms`);
    expect(slowest).toBeLessThan(400);
    expect(await attacked.alive()).toBe(true);

    // Broken files: each named in /api/health and the view; the last good hooks stay in force.
    const many = { hooks: { PreToolUse: [{ hooks: Array.from({ length: 10_000 }, () => ({ type: "command", command: "true" })) }] } };
    for (const [broken, says] of [
      [{ hooks: { BeforeEverything: [] } }, /the events are SessionStart/],
      [{ hooks: { PreToolUse: [{ matcher: "(?=lookahead)", hooks: [] }] } }, /not a regular expression RE2 reads/],
      [many, /more than 200 hooks/],
    ] as const) {
      await writeFile(join(root, "HOOKS.json"), JSON.stringify(broken));
      await expect.poll(async () => JSON.parse((await attacked!.request("/api/health")).text).hooks.problem ?? "", { timeout: 10_000 }).toMatch(says);
      const view = await hooksReply(attacked);
      expect(view.problem).toMatch(/the last good hooks stay in force/);
      expect(view.hooks).toHaveLength(8);
      expect(await readFile(join(root, "HOOKS.json"), "utf8")).toBe(JSON.stringify(broken));
      expect(await attacked.healthMs()).toBeLessThan(200);
    }
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is gone for every purpose but its parent's.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
