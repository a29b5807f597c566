import { describe, expect, it } from "vitest";
import { runHookCommand } from "./run-hook-command.js";

const options = { cwd: "/tmp", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: "{}", timeoutMs: 5000, maxBytes: 64 * 1024 };

describe("a hook's process", () => {
  it("is killed for a byte past the cap, also when the chunks before filled the cap exactly", async () => {
    // 64 KiB exactly, then one byte more: the first write fills the cap to the byte.
    const exact = await runHookCommand("head -c 65536 /dev/zero; sleep 0.2; printf x", options);
    expect(exact).toMatchObject({ exitCode: null, failure: "it printed more than 65536 bytes to stdout and was killed" });
    expect(exact.stdout).toHaveLength(65536);
    const under = await runHookCommand("head -c 65536 /dev/zero", options);
    expect(under).toMatchObject({ exitCode: 0 });
    expect(under.failure).toBeUndefined();
  });

  it("gets the event on stdin, and a command that is not there is exit 127", async () => {
    expect(await runHookCommand("cat", { ...options, stdin: '{"a":1}' })).toMatchObject({ exitCode: 0, stdout: '{"a":1}' });
    expect((await runHookCommand("/no/such/hook", options)).exitCode).toBe(127);
  });
});
