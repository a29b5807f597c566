#!/usr/bin/env node
/**
 * A scripted MCP server over stdio for the fault tests, written on the official SDK's low-level
 * `Server` (so it can say what a well-behaved server never would). Its behaviour is the first
 * argument:
 *   ok           three tools: `echo` (readOnlyHint), `write_note` and `fail` (answers isError)
 *   garbage      ok, plus lines on stdout that are not JSON-RPC, before and between answers
 *   bad-schema   `good` and three tools whose input schemas are not usable object JSON Schemas
 *   many         500 tools
 *   crash        writes to stderr and exits 3 before reading anything
 *   no-init      never answers `initialize`
 *   slow         `sleep` waits `ms` milliseconds (and notes a cancellation in the file $CANCEL_LOG)
 *   big          `big` returns `mb` megabytes of text
 *   die-after    ok, but `die` exits the process mid-call
 *   spawn-child  ok, and starts a child (`sleep 600`) whose pid goes to $CHILD_PID_FILE
 * The hostile ones (a server turned against the workbench):
 *   redos        ok, plus `match` whose argument has the pattern ^(a+)+$ (catastrophic on a backtracking engine)
 *   heavy        300 tools, each with a ~96,000-character input schema full of patterns
 *   endless      every tools/list page names a next page
 *   setsid       ok, and starts two children in sessions of their own (`setsid`, as a daemon does), their
 *                pids appended to $CHILD_PID_FILE
 */
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, CancelledNotificationSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const mode = process.argv[2] ?? "ok";
const object = (properties = {}, required = []) => ({ type: "object", properties, required });

if (mode === "crash") {
  process.stderr.write("fatal: cannot open database /nonexistent/db.sqlite\n");
  process.exit(3);
}
if (mode === "no-init") {
  process.stdin.resume();
  setInterval(() => {}, 1_000);
} else {
  const tools = [
    { name: "echo", description: "Echoes text back", inputSchema: object({ text: { type: "string" } }, ["text"]), annotations: { readOnlyHint: true } },
    { name: "write_note", description: "Pretends to write a note", inputSchema: object({ note: { type: "string" } }, ["note"]) },
    { name: "fail", description: "Always fails", inputSchema: object() },
  ];
  if (mode === "bad-schema") {
    tools.length = 0;
    tools.push({ name: "good", description: "fine", inputSchema: object({ n: { type: "integer" } }) });
    tools.push({ name: "array_schema", description: "not an object schema", inputSchema: { type: "array", items: { type: "string" } } });
    tools.push({ name: "broken_type", description: "not JSON Schema", inputSchema: { type: "object", properties: { x: { type: "strin" } } } });
    tools.push({ name: "bad_required", description: "not JSON Schema", inputSchema: { type: "object", required: "x" } });
  }
  if (mode === "many") for (let i = 0; i < 500; i++) tools.push({ name: `tool_${i}`, description: `Tool number ${i}`, inputSchema: object({ x: { type: "string" } }) });
  if (mode === "slow") tools.push({ name: "sleep", description: "Waits", inputSchema: object({ ms: { type: "integer" } }, ["ms"]) });
  if (mode === "big") tools.push({ name: "big", description: "A large result", inputSchema: object({ mb: { type: "integer" } }, ["mb"]) });
  if (mode === "die-after") tools.push({ name: "die", description: "Exits mid-call", inputSchema: object() });
  if (mode === "redos") tools.push({ name: "match", description: "Matches", inputSchema: object({ s: { type: "string", pattern: "^(a+)+$" } }, ["s"]) });
  if (mode === "heavy") {
    // Properties with nested alternatives and patterns: slow to compile into a validator, ~96 kB each.
    const properties = {};
    for (let i = 0; i < 240; i++) {
      properties[`field_${i}`] = {
        anyOf: [
          { type: "string", pattern: `^(a|aa)*b${i}$`, minLength: 1, maxLength: 64 },
          { type: "object", properties: { x: { type: "string", pattern: "^(\\w+\\s?)*$" }, y: { type: "integer", minimum: 0 } }, required: ["x"] },
          { type: "array", items: { type: "string", pattern: "^([a-z]+)*[0-9]$" }, maxItems: 8 },
        ],
        description: `Field ${i} `.repeat(12),
      };
    }
    tools.length = 0;
    for (let t = 0; t < 300; t++) tools.push({ name: `heavy_${t}`, description: `Heavy tool ${t}`, inputSchema: { type: "object", properties } });
  }

  const server = new Server({ name: `scripted-${mode}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    if (mode === "garbage") process.stdout.write("Server ready! (a log line on stdout)\n");
    if (mode === "endless") {
      const page = Number(request.params?.cursor ?? 0);
      if (process.env.PAGE_LOG) appendFileSync(process.env.PAGE_LOG, `${page}\n`);
      return { tools: [{ name: `page_${page}`, description: "one more", inputSchema: object() }], nextCursor: String(page + 1) };
    }
    return { tools };
  });
  server.setNotificationHandler(CancelledNotificationSchema, (note) => {
    if (process.env.CANCEL_LOG) appendFileSync(process.env.CANCEL_LOG, `${JSON.stringify(note.params)}\n`);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case "echo":
        if (mode === "garbage") process.stdout.write("debug: echo called\n");
        return { content: [{ type: "text", text: `echo: ${args.text}` }] };
      case "write_note":
        return { content: [{ type: "text", text: `noted: ${args.note}` }] };
      case "fail":
        return { content: [{ type: "text", text: "the disk is on fire" }], isError: true };
      case "match":
        return { content: [{ type: "text", text: `matched ${String(args.s).length}` }] };
      case "good":
        return { content: [{ type: "text", text: `good ${args.n ?? 0}` }] };
      case "sleep":
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, args.ms);
          extra.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return { content: [{ type: "text", text: "slept" }] };
      case "big":
        return { content: [{ type: "text", text: "x".repeat(args.mb * 1024 * 1024) }] };
      case "die":
        setTimeout(() => process.exit(9), 10);
        return new Promise(() => {});
      default:
        if (request.params.name.startsWith("tool_")) return { content: [{ type: "text", text: request.params.name }] };
        return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
    }
  });
  if (mode === "garbage") process.stdout.write("Starting scripted server...\n{not json either\n");
  if (mode === "spawn-child") {
    const child = spawn("sleep", ["600"], { stdio: "ignore" });
    if (process.env.CHILD_PID_FILE) writeFileSync(process.env.CHILD_PID_FILE, String(child.pid));
  }
  if (mode === "setsid") {
    // One child in a session of its own, and one orphaned at once (its shell exits), as a daemon is.
    const child = spawn("setsid", ["sleep", "600"], { stdio: "ignore" });
    const orphan = execFileSync("sh", ["-c", "setsid sleep 600 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" }).trim();
    if (process.env.CHILD_PID_FILE) appendFileSync(process.env.CHILD_PID_FILE, `${child.pid}\n${orphan}\n`);
  }
  await server.connect(new StdioServerTransport());
}
