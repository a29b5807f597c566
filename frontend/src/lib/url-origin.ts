/**
 * Where a URL in an answer points, seen from the page: the model's text is untrusted, and a
 * remote image would be fetched (and its URL, with whatever the model put in it, sent) the moment
 * it renders. So only the workbench's own origin and inline data load by themselves.
 */
export type UrlPlace = "same-origin" | "inline" | "external" | "invalid";

export function urlPlace(url: string | undefined | null, pageOrigin: string): UrlPlace {
  if (!url) return "invalid";
  if (/^(data|blob):/i.test(url)) return "inline";
  try {
    const parsed = new URL(url, pageOrigin);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "invalid";
    return parsed.origin === pageOrigin ? "same-origin" : "external";
  } catch {
    return "invalid";
  }
}

/** The host a URL names, for "load image from host?" (falls back to the URL itself). */
export function urlHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
