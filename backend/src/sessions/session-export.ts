/**
 * A session out of the workbench and back: JSON (the entries as stored, for an import) and Markdown
 * (for reading or sharing). An import is hostile input like any file: every entry is validated.
 */
import { type Attachment, type ExportedAttachment, exportedAttachmentSchema, type ExportedScreenshot, exportedScreenshotSchema, type SessionDetail, type SessionEntry, sessionEntrySchema, type SessionExport, type StoredEvent } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";

const MAX_IMPORT_ENTRIES = 200_000;
const MAX_IMPORT_ATTACHMENTS = 1000;
const TOOL_OUTPUT_CHARS = 2000;

export function exportJson(session: SessionDetail, attachments: ExportedAttachment[] = [], screenshots: ExportedScreenshot[] = []): SessionExport {
  return {
    format: "mini-openclaw-session",
    version: 2,
    id: session.id,
    title: session.title,
    exported_at: new Date().toISOString(),
    entries: session.entries,
    ...(attachments.length ? { attachments } : {}),
    ...(screenshots.length ? { screenshots } : {}),
  };
}

/** The screenshots the session's browser steps carry (their cards' `details.screenshot.id`), each once. */
export function screenshotIdsOf(entries: SessionEntry[]): string[] {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "event" || entry.event.type !== "tool_result") continue;
    const id = (entry.event.details as { screenshot?: { id?: unknown } | null } | undefined)?.screenshot?.id;
    if (typeof id === "string") ids.add(id);
  }
  return [...ids];
}

/** Every attachment the session's messages name, each once. */
export function attachmentsOf(entries: SessionEntry[]): Attachment[] {
  const byId = new Map<string, Attachment>();
  for (const entry of entries) if (entry.type === "user") for (const a of entry.attachments ?? []) byId.set(a.id, a);
  return [...byId.values()];
}

/** Imported entries naming the attachments as stored again; one the export did not carry is left out. */
export function withAttachments(entries: SessionEntry[], stored: Map<string, Attachment>): SessionEntry[] {
  return entries.map((entry) => {
    if (entry.type !== "user" || !entry.attachments) return entry;
    const attachments = entry.attachments.flatMap((a) => stored.get(a.id) ?? []);
    const { attachments: _old, ...rest } = entry;
    return attachments.length ? { ...rest, attachments } : rest;
  });
}

/** Entries of an export, validated line by line; the reason names the first entry that is not one. */
export function importedEntries(body: unknown, messageChars: number): { title: string; entries: SessionEntry[]; attachments: ExportedAttachment[]; screenshots: ExportedScreenshot[] } {
  const value = body as Partial<SessionExport> | null;
  if (typeof value !== "object" || value === null || value.format !== "mini-openclaw-session") {
    throw new UserError("invalid_request", 'Not a session export: expected a JSON object with "format": "mini-openclaw-session".');
  }
  if (value.version !== 2) throw new UserError("invalid_request", `Session export version ${String(value.version)} is not one this workbench reads (2).`);
  if (!Array.isArray(value.entries)) throw new UserError("invalid_request", '"entries" must be an array of session entries.');
  if (value.entries.length > MAX_IMPORT_ENTRIES) throw new UserError("too_large", `The export holds more than ${MAX_IMPORT_ENTRIES} entries.`);
  const entries: SessionEntry[] = [];
  value.entries.forEach((raw, i) => {
    const parsed = sessionEntrySchema.safeParse(raw);
    if (!parsed.success) throw new UserError("invalid_request", `Entry ${i + 1} is not a valid session entry: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
    // The limits chat applies: what could not have been sent is not taken in by the back door.
    const message = parsed.data.type === "user" ? Math.max(parsed.data.content.length, parsed.data.model_content?.length ?? 0) : 0;
    if (message > messageChars) throw new UserError("too_large", `Entry ${i + 1} is a message of ${message} characters, over the ${messageChars} that chat takes.`);
    if (parsed.data.type !== "header") entries.push(parsed.data as SessionEntry);
  });
  const attachments = value.attachments ?? [];
  if (!Array.isArray(attachments)) throw new UserError("invalid_request", '"attachments" must be an array of attachments with their bytes.');
  if (attachments.length > MAX_IMPORT_ATTACHMENTS) throw new UserError("too_large", `The export holds more than ${MAX_IMPORT_ATTACHMENTS} attachments.`);
  const carried = attachments.map((raw, i) => {
    const parsed = exportedAttachmentSchema.safeParse(raw);
    if (!parsed.success) throw new UserError("invalid_request", `Attachment ${i + 1} is not a valid exported attachment: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
    return parsed.data;
  });
  const pictures = value.screenshots ?? [];
  if (!Array.isArray(pictures) || pictures.length > MAX_IMPORT_ATTACHMENTS) throw new UserError("invalid_request", `"screenshots" must be an array of at most ${MAX_IMPORT_ATTACHMENTS} screenshots with their bytes.`);
  const screenshots = pictures.map((raw, i) => {
    const parsed = exportedScreenshotSchema.safeParse(raw);
    if (!parsed.success) throw new UserError("invalid_request", `Screenshot ${i + 1} is not a valid exported screenshot: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
    return parsed.data;
  });
  return { title: typeof value.title === "string" ? value.title.slice(0, 200) : "", entries: renumbered(entries), attachments: carried, screenshots };
}

/**
 * An import's event ids numbered afresh, 1, 2, 3… in file order: the file's own may be anything (an
 * edited export), and the server's clock must never take its cue from them.
 */
function renumbered(entries: SessionEntry[]): SessionEntry[] {
  let next = 0;
  return entries.map((entry) => {
    if (entry.type !== "event" || (entry.id === undefined && entry.first_id === undefined)) return entry;
    const first_id = entry.first_id !== undefined ? ++next : undefined;
    return { ...entry, ...(first_id !== undefined ? { first_id } : {}), id: ++next };
  });
}

const fence = (text: string, lang = "") => {
  const ticks = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};
const details = (summary: string, body: string) => `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;

function eventMarkdown(event: StoredEvent): string | null {
  switch (event.type) {
    case "thought":
      return details("Thought", event.content);
    case "tool_call":
      return `**Tool call** \`${event.name}\`\n\n${fence(typeof event.input === "string" ? event.input : JSON.stringify(event.input, null, 2), "json")}`;
    case "tool_result": {
      const output = event.output.length > TOOL_OUTPUT_CHARS ? `${event.output.slice(0, TOOL_OUTPUT_CHARS)}\n…` : event.output;
      return details(`Result of \`${event.name}\` (${event.ok ? "ok" : "failed"}, ${event.duration_ms} ms)`, fence(output));
    }
    case "skill":
      return `*Skill loaded: ${event.name}*`;
    case "hook": {
      const outcome = event.decision ?? event.status;
      const said = [event.error, event.reason, event.additional_context ? `Context: ${event.additional_context}` : undefined].filter(Boolean).join("\n\n");
      return `*Hook ${event.event} (\`${event.command.replace(/`/g, "'")}\`): ${outcome}, ${event.duration_ms} ms*${said ? `\n\n${fence(said)}` : ""}`;
    }
    case "final":
      return `### Assistant\n\n${event.content}`;
    case "error":
      return `> **Error** (${event.code}): ${event.message}`;
    case "delegate":
      return event.event.type === "final" ? details(`Sub-agent ${event.agent} answered`, event.event.content) : null;
    default:
      return null;
  }
}

/** The conversation as Markdown: each turn's message, thoughts and tool calls folded, and the answer. */
export function exportMarkdown(session: SessionDetail): string {
  const parts = [`# ${session.title}`, `*Session \`${session.id}\`, exported from Mini-OpenClaw on ${new Date().toISOString().slice(0, 10)}.*`];
  let turn = 0;
  let streamed = "";
  let finished = true;
  const closeTurn = () => {
    // A turn cut short has no final: what streamed is its answer.
    if (!finished && streamed) parts.push(`### Assistant (interrupted)\n\n${streamed}`);
  };
  for (const entry of session.entries) {
    if (entry.type === "user") {
      closeTurn();
      turn++;
      streamed = "";
      finished = false;
      parts.push(`## Turn ${turn}\n\n### You\n\n${entry.content}`);
    } else if (entry.type === "event") {
      if (entry.event.type === "token") streamed += entry.event.content;
      if (entry.event.type === "final" || entry.event.type === "error") finished = true;
      const text = eventMarkdown(entry.event);
      if (text) parts.push(text);
    } else if (entry.type === "review") parts.push(details("Review", entry.content));
    else if (entry.type === "compaction") parts.push(details(`Summary of turns 1-${entry.covers_turns} (sent to the model instead of them)`, entry.content));
  }
  closeTurn();
  return `${parts.join("\n\n")}\n`;
}
