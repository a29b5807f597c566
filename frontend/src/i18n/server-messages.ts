/**
 * The server's errors and toasts in the user's language: each carries a stable `code` (a turn's `chatErrorCode`,
 * a reply's `ApiErrorCode`); the UI says what it means in the reader's language and keeps the
 * server's own words (English, with the specifics: a path, a limit, an endpoint) as the detail.
 */
import type { ApiErrorCode, ChatErrorCode, ToastNotice } from "@mini-openclaw/protocol";
import { currentLanguage, i18n } from "./language";

/** Codes whose words say everything: the server's detail adds nothing a reader needs. */
const SELF_EXPLAINING = new Set<string>(["aborted"]);

function withDetail(headline: string, code: string, detail: string): string {
  // The server writes English: in English its words are the message (they already say what happened).
  if (currentLanguage() === "en" || !detail) return detail || headline;
  if (SELF_EXPLAINING.has(code)) return headline;
  return i18n.t("errors.withDetail", { headline, detail });
}

export const chatErrorText = (code: ChatErrorCode, detail: string): string => withDetail(i18n.t(`errors.api.${code}`), code, detail);

export const apiErrorText = (code: ApiErrorCode, detail: string): string => withDetail(i18n.t(`errors.api.${code}`), code, detail);

/** A server toast in the reader's language, from what it tells (the notice), else the server's words. */
export function toastText(message: string, notice: ToastNotice | undefined): string {
  if (!notice) return message;
  switch (notice.kind) {
    case "model_set":
      return notice.base_url ? i18n.t("notice.modelSetAt", { model: notice.model, url: notice.base_url }) : i18n.t("notice.modelSet", { model: notice.model });
    case "profile_saved":
      return i18n.t("notice.profileSaved", { name: notice.name, model: notice.model });
    case "profile_deleted":
      return i18n.t("notice.profileDeleted", { name: notice.name });
    case "compacted":
      return notice.skills.length ? i18n.t("notice.compactedKept", { count: notice.turns, skills: notice.skills.join(", ") }) : i18n.t("notice.compacted", { count: notice.turns });
    case "compaction_failed":
      return i18n.t("notice.compactionFailed", { detail: notice.detail });
    case "queued_failed":
      return i18n.t("notice.queuedFailed", { detail: notice.detail });
    case "skill_skipped":
      return i18n.t("notice.skillSkipped", { folder: notice.folder, detail: notice.detail });
    case "standing_order_changed":
      return i18n.t("notice.standingOrderChanged", { file: notice.file });
    case "proposals_made":
      return i18n.t(notice.ok ? "notice.proposalsMade" : "notice.proposalsFailed", { detail: notice.detail });
  }
}
