/**
 * What makes one file or folder name unusable, wherever a name comes from (an upload, the file API,
 * an archive, the model): a control character (a newline, an escape code for the terminal), a
 * character that reorders how text is shown (a right-to-left override makes `evil‮txt.md` read as
 * `evildm.txt`), or more bytes than a file system takes in one name (255).
 */

import { NAME_MAX_BYTES } from "@mini-openclaw/protocol";

const CONTROL = /\p{Cc}/u;
/** Bidirectional controls: embeddings, overrides, isolates and marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Why a single name (no `/`) cannot be used, or null. */
export function nameProblem(name: string): string | null {
  if (CONTROL.test(name)) return "holds a control character (a newline, a tab, an escape code)";
  if (BIDI.test(name)) return "holds a character that reorders how its text is shown (a bidirectional control)";
  const bytes = Buffer.byteLength(name, "utf8");
  if (bytes > NAME_MAX_BYTES) return `has a name of ${bytes} bytes, over the ${NAME_MAX_BYTES} a file system takes`;
  return null;
}

/** A name as it may be shown in a message: control and bidirectional characters written as `\uXXXX`. */
export function shownName(name: string): string {
  return JSON.stringify(name).replace(/[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
