/**
 * The sandbox shows no host paths (issue 31): the data root is /workbench inside it, so `pwd`, `df`
 * and error messages never say where the data lives on the host.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { callsThenAnswer, resultsOf } from "../test-support/mcp-harness.js";
import { chat, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

describe.skipIf(!sandboxExpected().available)("paths inside the sandbox", () => {
  it("pwd, df, an error message and Python's cwd name /workbench, never the data root's host path", async () => {
    wb = await startWorkbench({
      script: callsThenAnswer([
        { name: "terminal", args: { command: "pwd; df -h . | tail -1; ls /nowhere 2>&1; cat workspace/nope.md 2>&1; realpath workspace" } },
        { name: "python_repl", args: { code: "import os; print(os.getcwd()); open('workspace/p.txt','w').write('x'); print(os.path.abspath('workspace/p.txt'))" } },
      ]),
    });
    const [shell, python] = resultsOf(await chat(wb, "where am I?"));
    for (const result of [shell, python]) {
      expect(result.ok).toBe(true);
      expect(result.output).not.toContain(wb.dataRoot);
      expect(result.output).not.toMatch(/moc-root-/);
    }
    expect(shell.output.split("\n")[0]).toBe("/workbench");
    expect(shell.output).toContain("/workbench/workspace");
    expect(python.output).toContain("/workbench\n/workbench/workspace/p.txt");
  });
});
