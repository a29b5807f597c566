import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writableScriptProblem } from "./hook-script-location.js";

let root: string;
let outside: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "moc-hookloc-"));
  outside = await mkdtemp(join(tmpdir(), "moc-hookout-"));
  await mkdir(join(root, "workspace"), { recursive: true });
  await mkdir(join(root, "hooks"), { recursive: true });
  await writeFile(join(root, "workspace", "run.sh"), "#!/bin/sh\n");
  await writeFile(join(root, "hooks", "ok.sh"), "#!/bin/sh\n");
  // A script outside that is really a link into a folder the agent writes.
  await symlink(join(root, "workspace", "run.sh"), join(outside, "linked.sh"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("a hook command that runs what the agent could have written", () => {
  it("is refused when a word of it lies in a writable data folder: as written, through the data root's variables, or through a link", () => {
    expect(writableScriptProblem("workspace/run.sh", root)).toContain("a folder the agent's tools can write");
    expect(writableScriptProblem('"$CLAUDE_PROJECT_DIR"/workspace/run.sh --fix', root)).toContain("workspace/run.sh");
    expect(writableScriptProblem("python3 ${MINI_OPENCLAW_DATA_ROOT}/skills/x/hook.py", root)).toContain("skills/x/hook.py");
    expect(writableScriptProblem(`bash ${join(outside, "linked.sh")}`, root)).toContain("linked.sh");
    expect(writableScriptProblem("cat | tee -a memory/log.txt", root)).toContain("memory/log.txt");
  });

  it("is let be for scripts at the data root's hooks/ or elsewhere, and words that are not paths", () => {
    expect(writableScriptProblem('"$CLAUDE_PROJECT_DIR"/hooks/ok.sh', root)).toBeNull();
    expect(writableScriptProblem("jq -r .tool_input.command | grep -q memory && exit 2", root)).toBeNull();
    expect(writableScriptProblem("/usr/bin/true", root)).toBeNull();
  });
});
