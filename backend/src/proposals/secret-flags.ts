/**
 * A secret in a proposed text: one of the workbench's own keys (the scrubber's sources: KEY.md, the
 * profiles' keys, search keys), or something shaped like a provider's API key. Such a hunk is shown
 * flagged and cannot be accepted until the text no longer holds it.
 */
import type { SecretScrubber } from "../secrets/secret-scrubber.js";

/** Shapes providers give their keys (a prefix and a long random tail). */
const KEY_SHAPES: Array<{ name: string; shape: RegExp }> = [
  { name: "an OpenAI-style key (sk-…)", shape: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { name: "a GitHub token (ghp_…)", shape: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { name: "an AWS access key id (AKIA…)", shape: /\bAKIA[0-9A-Z]{16}\b/ },
  { name: "a Slack token (xox…)", shape: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: "a Google API key (AIza…)", shape: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { name: "a private key block", shape: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
];

/** Why `text` may not be written to memory as it is, or null. */
export function secretIn(text: string, secrets: Pick<SecretScrubber, "scrub">): string | null {
  if (secrets.scrub(text) !== text) return "It holds one of the workbench's keys (KEY.md or a model, search or server setting).";
  const shape = KEY_SHAPES.find(({ shape }) => shape.test(text));
  return shape ? `It holds what looks like ${shape.name}.` : null;
}
