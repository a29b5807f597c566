/**
 * Round 4, finding 1: a model server that repeats the key in its error (OpenAI's own wording echoes
 * part of it, proxies echo it whole), and a page that carries it into a tool's output. After each,
 * the key in none of its printed forms may be anywhere: the chat reply, any file of the data root,
 * the log, both exports, the spans a local OTLP receiver got, any reply (the model test's too), or a
 * later request to the model.
 */
import { readdir, readFile, lstat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttackedServer, SERVER_SECRET, startAttackedServer } from "../../test-support/adversary.js";
import { startLocalWeb, type LocalWeb } from "../../test-support/local-web-server.js";
import { type OtlpReceiver, startOtlpReceiver } from "../../test-support/otlp-receiver.js";
import { lastMessage, messageText } from "../../test-support/scripted-model-server.js";

const OTLP_TOKEN = "otlp-collector-token-3f9a77c1";
/** The forms a server prints a key in: whole behind Bearer, OpenAI's first-and-last, a proxy's cut prefix. */
const ECHOES = {
  whole: `Invalid Authorization header: Bearer ${SERVER_SECRET}`,
  openai: `Incorrect API key provided: ${SERVER_SECRET.slice(0, 8)}${"*".repeat(24)}${SERVER_SECRET.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
  cut: `token ${SERVER_SECRET.slice(0, 18)}... rejected by upstream`,
};
/** What would betray the key: the whole of it, and the distinctive pieces each echo carries. */
const NEEDLES = [SERVER_SECRET, SERVER_SECRET.slice(0, 18), `${SERVER_SECRET.slice(0, 8)}****`, `*${SERVER_SECRET.slice(-4)}`, OTLP_TOKEN];

let s: AttackedServer;
let otlp: OtlpReceiver;
let web: LocalWeb;
let echo: keyof typeof ECHOES = "whole";

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (info?.isDirectory()) out.push(...(await filesUnder(path)));
    else if (info?.isFile()) out.push(path);
  }
  return out;
}

/** Every place a needle is found: the data root's files, the log, the spans. */
async function everywhere(): Promise<string[]> {
  const found: string[] = [];
  for (const file of await filesUnder(s.dataRoot)) {
    const text = await readFile(file, "latin1");
    for (const needle of NEEDLES) if (text.includes(needle)) found.push(`${file}: ${needle}`);
  }
  const spans = JSON.stringify(otlp.spans, (_k, v) => (typeof v === "bigint" ? String(v) : v));
  for (const needle of NEEDLES) if (spans.includes(needle)) found.push(`a span: ${needle}`);
  return found;
}

function clean(text: string, where: string) {
  for (const needle of NEEDLES) expect(text.includes(needle), `${where} holds ${needle}`).toBe(false);
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  web = await startLocalWeb({
    "/leaky.html": (res) => res.writeHead(200, { "content-type": "text/html" }).end(`<html><body><p>Debug dump: api_key=${SERVER_SECRET}</p></body></html>`),
  });
  s = await startAttackedServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${OTLP_TOKEN}`,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      FETCH_ALLOWLIST: `127.0.0.1:${web.port}`,
    },
    script: (body) => {
      const last = lastMessage(body);
      if (last.role === "tool") return { content: `The page said: ${messageText(last.content).slice(0, 300)}` };
      if (messageText(last.content).includes("read the page")) return { toolCalls: [{ name: "fetch_url", args: { url: `${web.url}/leaky.html` } }] };
      return { kind: "error", status: 401, message: ECHOES[echo], body: { error: { message: ECHOES[echo], type: "invalid_request_error", code: "invalid_api_key" } } };
    },
  });
});
afterAll(async () => {
  await s?.close();
  await otlp?.close();
  await web?.close();
});

async function chat(message: string, stream: boolean) {
  const reply = await s.request("/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message, stream }) });
  return reply;
}

describe("a key the model server repeats in its error", () => {
  for (const form of Object.keys(ECHOES) as Array<keyof typeof ECHOES>) {
    it(`(${form}) is in no reply, file, export, log line or span, and the user still reads why`, async () => {
      echo = form;
      const log = s.logSince();
      const erroredBefore = otlp.spans.filter((span) => span.status === 2).length;
      const streamed = await chat(`hello (${form})`, true);
      expect(streamed.status).toBe(200);
      clean(streamed.text, "the SSE stream");
      expect(streamed.text).toContain("model_auth");
      expect(streamed.text).toContain("[secret removed]");
      const json = await chat(`hello again (${form})`, false);
      clean(json.text, "the JSON reply");
      const sessionId = (JSON.parse(json.text) as { session_id: string }).session_id;
      for (const format of ["json", "md"]) {
        const exported = await s.request(`/api/sessions/${sessionId}/export?format=${format}`);
        expect(exported.status).toBe(200);
        clean(exported.text, `the ${format} export`);
      }
      clean((await s.request(`/api/sessions/${sessionId}`)).text, "the session reply");
      // The model dialog's Test connection with the saved key.
      const test = await s.request("/api/model/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ base_url: s.model.baseUrl, model: "scripted" }) });
      expect(test.status).toBe(200);
      clean(test.text, "the model test's answer");
      // The turns' traces arrive (exported in the background), with the error's status.
      await expect.poll(() => otlp.spans.filter((span) => span.status === 2).length - erroredBefore, { timeout: 15_000 }).toBeGreaterThan(0);
      clean(log(), "the log");
      expect(await everywhere()).toEqual([]);
    });
  }

  it("a grep of the sessions from the sandbox finds nothing to send out", async () => {
    const grep = await s.plant(`grep -rho 'sk-[A-Za-z0-9*.-]*' /workbench/sessions 2>/dev/null | sort -u; true`);
    expect(grep.exitCode).toBe(0);
    for (const needle of NEEDLES) expect(grep.output).not.toContain(needle);
  });
});

describe("a key in a tool's output", () => {
  it("never reaches the model, the stream or the session", async () => {
    const reply = await chat("please read the page", false);
    expect(reply.status).toBe(200);
    clean(reply.text, "the reply");
    expect(reply.text).toMatch(/Debug dump: api\\\\?_key=\[secret removed\]/);
    for (const request of s.model.requests) clean(JSON.stringify(request.body), "a model request");
    expect(await everywhere()).toEqual([]);
  });
});
