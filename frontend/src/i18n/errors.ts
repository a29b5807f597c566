/**
 * The server's errors in the user's language: each carries a stable `code` (a turn's `chatErrorCode`,
 * a reply's `ApiErrorCode`); the UI says what it means in the reader's language and keeps the
 * server's own words (English, with the specifics: a path, a limit, an endpoint) as the detail.
 */
import type { ApiErrorCode, ChatErrorCode } from "@mini-openclaw/protocol";
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
