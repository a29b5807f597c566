/**
 * A profile's key goes to its endpoint and nowhere else (issue 38): not in `GET /api/models` or any
 * other reply, not in MODELS.json, the session file, an export, the log, or the environment of a
 * tool process. The workbench runs as its own process, at debug level, so its whole log is read.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { lastMessage, messageText, type ModelScript, type ScriptedModelServer, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";
import { postJson } from "../test-support/workbench-harness.js";

let server: ServerProcess | undefined;
let models: ScriptedModelServer[] = [];
let root: string | undefined;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  for (const m of models) await m.close();
  if (root) await rm(root, { recursive: true, force: true });
  server = root = undefined;
  models = [];
});

const KEY_A = "sk-default-9c1e77a0d3";
/** Saved through the API, so it lives in KEY.md. */
const KEY_B = "sk-profile-b-52f0e1aa";
/** Set in the environment. */
const KEY_C = "sk-profile-c-env-7ab3";

it("neither key is in any reply, the profiles file, the session file, an export, the log, or a tool process's environment", async () => {
  // Each server runs a terminal call that prints its own environment, then answers with what it saw.
  const script: ModelScript = (body) =>
    lastMessage(body).role === "tool" ? { content: `The tool said: ${messageText(lastMessage(body).content).slice(0, 2000)}` } : { toolCalls: [{ name: "terminal", args: { command: "cat /proc/self/environ | tr '\\0' '\\n'; env" } }] };
  const [a, b, c] = await Promise.all([startScriptedModelServer(script), startScriptedModelServer(script), startScriptedModelServer(script)]);
  models = [a, b, c];
  root = await mkdtemp(join(tmpdir(), "moc-keys-"));
  const keyFile = join(root, "..", `${root.split("/").pop()}-KEY.md`);
  await writeFile(keyFile, "# keys\n");
  server = await startServerProcess({
    WORKBENCH_ROOT: root,
    KEY_FILE: keyFile,
    OPENAI_BASE_URL: a.baseUrl,
    OPENAI_API_KEY: KEY_A,
    OPENAI_MODEL: "model-a",
    MODEL_C_API_KEY: KEY_C,
    LOG_LEVEL: "debug",
  });
  const put = (name: string, body: unknown) => fetch(`${server!.url}/api/models/${name}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await put("b", { base_url: b.baseUrl, model: "model-b", api_key: KEY_B })).status).toBe(200);
  expect((await put("c", { base_url: c.baseUrl, model: "model-c" })).status).toBe(200);

  const sessions: string[] = [];
  for (const body of [{}, { model: "b" }, { model: "c" }]) {
    const reply = (await (await postJson(`${server.url}/api/chat`, { message: "print your environment", stream: false, ...body })).json()) as { session_id: string; content: string };
    expect(reply.content).toContain("The tool said:");
    sessions.push(reply.session_id);
  }
  // Each endpoint got its own key, and only its own.
  expect(a.requests.every((r) => r.headers.authorization === `Bearer ${KEY_A}`)).toBe(true);
  expect(b.requests.every((r) => r.headers.authorization === `Bearer ${KEY_B}`)).toBe(true);
  expect(c.requests.every((r) => r.headers.authorization === `Bearer ${KEY_C}`)).toBe(true);
  // The tool really ran and printed an environment (so the check below looks at one).
  expect(JSON.stringify(a.requests.at(-1)!.body.messages)).toMatch(/PATH=/);

  const seen: Array<[string, string]> = [];
  for (const path of ["/api/models", "/api/model", "/api/health", "/api/sessions", "/api/prompt", "/api/files/list", ...sessions.flatMap((id) => [`/api/sessions/${id}`, `/api/sessions/${id}/export`, `/api/sessions/${id}/export?format=md`])]) {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status, path).toBe(200);
    seen.push([path, await response.text()]);
  }
  seen.push(["MODELS.json", await readFile(join(root, "MODELS.json"), "utf8")]);
  for (const name of await readdir(join(root, "sessions"))) if (name.endsWith(".jsonl")) seen.push([name, await readFile(join(root, "sessions", name), "utf8")]);
  seen.push(["the log", server.output.join("")]);
  // What each tool process saw of its environment went to the model in the tool's result.
  for (const m of models) for (const r of m.requests) seen.push([`${m.baseUrl} request`, JSON.stringify(r.body)]);
  for (const [where, text] of seen) {
    for (const key of [KEY_A, KEY_B, KEY_C]) expect(text.includes(key), `${key} in ${where}`).toBe(false);
  }
  // The key saved through the API is in KEY.md, where keys live.
  expect(await readFile(keyFile, "utf8")).toContain(`MODEL_B_API_KEY=${KEY_B}`);
  const listed = JSON.parse(seen[0][1]) as { profiles: Array<{ name: string; api_key_set: boolean; key_setting: string }> };
  expect(listed.profiles.map((p) => [p.name, p.api_key_set, p.key_setting])).toEqual([
    ["default", true, "OPENAI_API_KEY"],
    ["b", true, "MODEL_B_API_KEY"],
    ["c", true, "MODEL_C_API_KEY"],
  ]);
  await rm(keyFile, { force: true });
});
