import type { ToastNotice, UiEvent } from "@mini-openclaw/protocol";

/** A toast's notice in the server's words (English): what API clients and logs read; pages word the notice themselves. */
export function noticeMessage(notice: ToastNotice): string {
  switch (notice.kind) {
    case "model_set":
      return `Model set: ${notice.model}${notice.base_url ? ` at ${notice.base_url}` : ""}.`;
    case "profile_saved":
      return `Model profile saved: ${notice.name} (${notice.model}).`;
    case "profile_deleted":
      return `Model profile deleted: ${notice.name}. Sessions on it go back to the default profile.`;
    case "compacted":
      return `Compacted ${notice.turns} turn${notice.turns === 1 ? "" : "s"} into a summary${notice.skills.length ? `; kept ${notice.skills.join(", ")}` : ""}.`;
    case "compaction_failed":
      return `The session is over its context budget but could not be compacted: ${notice.detail}`;
    case "queued_failed":
      return `A queued message could not run: ${notice.detail}`;
    case "skill_skipped":
      return `Skill "${notice.folder}" is skipped: ${notice.detail}.`;
    case "standing_order_changed":
      return `${notice.file} was changed by a tool: the heartbeat keeps running the checklist you accepted until you accept the change (Tasks view).`;
    case "proposals_made":
      return notice.ok ? `The memory helper proposed: ${notice.detail} See Proposals.` : `The memory helper proposed nothing: ${notice.detail}`;
  }
}

/** The toast event for a notice: the notice itself and its words. */
export const toastEvent = (notice: ToastNotice, level: "info" | "warning" = "info"): Extract<UiEvent, { type: "toast" }> => ({ type: "toast", message: noticeMessage(notice), level, notice });
