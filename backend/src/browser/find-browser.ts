import { accessSync, constants } from "node:fs";

/** Where Debian, Ubuntu and Google put a Chromium-family browser, in the order tried. */
// Debian's /usr/bin/chromium is a wrapper that adds Google API keys (sign-in, sync): its binary is taken first.
const CANDIDATES = ["/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome", "/opt/google/chrome/chrome"];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The browser the `browser` tool drives: `BROWSER_PATH` when set (and there), else the system's; null when none is installed. */
export function findBrowser(configured: string | null): string | null {
  if (configured !== null) return executable(configured) ? configured : null;
  return CANDIDATES.find(executable) ?? null;
}
