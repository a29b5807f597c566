/**
 * The heartbeat: a periodic turn with `workspace/HEARTBEAT.md` as its checklist, quiet when nothing
 * needs the user (the answer is just `HEARTBEAT_OK`), and not run in the quiet hours.
 */
import type { HeartbeatSettings } from "@mini-openclaw/protocol";

export const HEARTBEAT_FILE = "workspace/HEARTBEAT.md";
export const HEARTBEAT_OK = "HEARTBEAT_OK";
export const HEARTBEAT_MINUTES = 30;

/** The message a heartbeat sends: what it is, and the checklist the user accepted (heartbeat-checklist.ts). */
export function heartbeatPrompt(accepted: string | null): string {
  const checklist = accepted?.trim();
  return [
    "This is a heartbeat: a scheduled check that runs with nobody watching. Go through the checklist below",
    `(${HEARTBEAT_FILE}) and do what it asks. Do not pick up old tasks from earlier turns unless the checklist says so.`,
    `If nothing needs the user's attention, answer with exactly ${HEARTBEAT_OK} and nothing else; otherwise say briefly what needs them.`,
    "",
    checklist || "(The checklist is empty.)",
  ].join("\n");
}

/** The answer says nothing needs the user: `HEARTBEAT_OK` alone (in backticks or bold, with a full stop, is the same). */
export function isHeartbeatOk(answer: string): boolean {
  return answer.trim().replace(/^[`*]+|[`*.!]+$/g, "") === HEARTBEAT_OK;
}

/** Whether `at` falls in the quiet hours (the server's clock; `from` after `to` spans midnight). */
export function inQuietHours(settings: HeartbeatSettings | undefined, at: Date): boolean {
  const quiet = settings?.quiet_hours;
  if (!quiet) return false;
  const minutes = at.getHours() * 60 + at.getMinutes();
  const [from, to] = [quiet.from, quiet.to].map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
  return from <= to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}
