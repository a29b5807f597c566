/**
 * A Chromium's own driver process: Playwright's browser server (launching Chromium, speaking CDP to
 * it) runs here, not on the workbench's thread, which only talks to it over a local WebSocket.
 * Started with the launch options as its one argument; answers one line on stdout
 * (`{ "ws": …, "pid": … }`); ends the browser and itself when its stdin closes (the workbench
 * went away or let go of it) or on SIGTERM.
 */
import { setPriority } from "node:os";
import { chromium, type LaunchOptions } from "playwright-core";

// Lowest: a page spinning in a script must not take the CPU the server answers with
// (Chromium and its renderers inherit this).
try {
  setPriority(19);
} catch {
  // not permitted here: run at the default priority
}

const options = JSON.parse(process.argv[2] ?? "{}") as LaunchOptions;
const server = await chromium.launchServer(options);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.kill().catch(() => {});
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.on("error", () => void stop());
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ ws: server.wsEndpoint(), pid: server.process().pid ?? null })}\n`);
