import { UserError } from "../lib/user-error.js";

/** A base URL as given: empty is none; anything else must be http(s). */
export function baseUrlOf(value: string | null | undefined, field: string): string | null {
  const baseUrl = value?.trim() || null;
  if (!baseUrl) return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UserError("invalid_request", `'${field}' is not a URL: ${baseUrl.slice(0, 100)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UserError("invalid_request", `'${field}' must be an http:// or https:// URL.`);
  return baseUrl;
}
