/**
 * The one lexical reading of a relative path a request, the model or an archive names: its segments,
 * or why it is refused. Each caller words the refusal for its own users (the file API, a knowledge
 * upload, a skill archive); what counts as a clean path is decided here only. The file system is not
 * consulted: links are dealt with where the path is opened (dir-handle.ts).
 */
import { MAX_PATH_CHARS } from "@mini-openclaw/protocol";
import { nameProblem } from "./name-problem.js";

export type PathRefusal =
  | { kind: "empty" }
  | { kind: "too_long" }
  | { kind: "nul" }
  | { kind: "backslash" }
  | { kind: "absolute" }
  | { kind: "parent" }
  | { kind: "no_name" }
  | { kind: "bad_name"; problem: string };

/** `a//./b/c.md` → `["a", "b", "c.md"]`; absolute paths, `..`, NUL, backslashes and unusable names refused. */
export function relativeSegments(input: string): { segments: string[] } | { refused: PathRefusal } {
  if (input.length === 0) return { refused: { kind: "empty" } };
  if (input.length > MAX_PATH_CHARS) return { refused: { kind: "too_long" } };
  if (input.includes("\0")) return { refused: { kind: "nul" } };
  if (input.includes("\\")) return { refused: { kind: "backslash" } };
  if (input.startsWith("/") || input.startsWith("~") || /^[a-zA-Z]:/.test(input)) return { refused: { kind: "absolute" } };
  const segments = input.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) return { refused: { kind: "parent" } };
  if (segments.length === 0) return { refused: { kind: "no_name" } };
  for (const segment of segments) {
    const problem = nameProblem(segment);
    if (problem) return { refused: { kind: "bad_name", problem } };
  }
  return { segments };
}
