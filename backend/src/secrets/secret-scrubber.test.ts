import { describe, expect, it } from "vitest";
import { SECRET_REMOVED, SecretScrubber } from "./secret-scrubber.js";

const KEY = "sk-proj-Zq81Lk2mNb7Xc4Vp0RtY9WeA3sDf6GhJ";

function scrubber(...secrets: string[]) {
  const s = new SecretScrubber();
  s.addSource(() => secrets);
  return s;
}

describe("the secret scrubber", () => {
  it("removes a key whole, behind Bearer, inside JSON and URL-encoded", () => {
    const s = scrubber(KEY);
    expect(s.scrub(`401 {"error":{"message":"Invalid token: Bearer ${KEY}"}}`)).toBe(`401 {"error":{"message":"Invalid token: Bearer ${SECRET_REMOVED}"}}`);
    expect(s.scrub(`?key=${encodeURIComponent(KEY)}&x=1`)).not.toContain(KEY);
  });

  it("removes the forms OpenAI and proxies print: first and last characters, a cut prefix, the end only", () => {
    const s = scrubber(KEY);
    // OpenAI: "Incorrect API key provided: sk-proj-****…GhJ." (first characters, a mask, the last four).
    const openai = `Incorrect API key provided: sk-proj-${"*".repeat(40)}6GhJ. You can find your API key at https://platform.openai.com/account/api-keys.`;
    expect(s.scrub(openai)).toBe(`Incorrect API key provided: ${SECRET_REMOVED}. You can find your API key at https://platform.openai.com/account/api-keys.`);
    expect(s.scrub("key sk-…f6GhJ refused")).toBe(`key ${SECRET_REMOVED} refused`);
    expect(s.scrub("key sk-proj-Zq81... refused")).toBe(`key ${SECRET_REMOVED} refused`);
    expect(s.scrub("token ****3sDf6GhJ")).toBe(`token ${SECRET_REMOVED}`);
    // A proxy that cut it after 20 characters.
    expect(s.scrub(`auth ${KEY.slice(0, 20)}`)).toBe(`auth ${SECRET_REMOVED}`);
  });

  it("leaves ordinary text alone: other keys' shapes, short words, URLs, ellipses", () => {
    const s = scrubber(KEY);
    const text = "Loading... sk-other-key-000000000000 https://api.openai.com/v1 and **bold** text, sk-…0000";
    expect(s.scrub(text)).toBe(text);
  });

  it("takes each word of a header value and ignores values too short to be secrets", () => {
    const s = scrubber("Bearer otlp-token-77aa99", "admin");
    expect(s.scrub("sent otlp-token-77aa99 as admin")).toBe(`sent ${SECRET_REMOVED} as admin`);
  });

  it("asks its sources each time: a key saved later is removed from then on", () => {
    const keys: string[] = [];
    const s = new SecretScrubber();
    s.addSource(() => keys);
    expect(s.scrub(`x ${KEY}`)).toBe(`x ${KEY}`);
    keys.push(KEY);
    expect(s.scrub(`x ${KEY}`)).toBe(`x ${SECRET_REMOVED}`);
  });

  it("scrubs every string of a value and keeps what did not change as it was", () => {
    const s = scrubber(KEY);
    const clean = { a: [1, "x"] };
    const value = { clean, error: { message: `bad ${KEY}` } };
    const out = s.scrubValue(value);
    expect(out.error.message).toBe(`bad ${SECRET_REMOVED}`);
    expect(out.clean).toBe(clean);
    expect(value.error.message).toContain(KEY);
  });
});

describe("the secret scrubber on long text", () => {
  it("reads a 20 MB answer that is one long word without failing, and hands the same string back", () => {
    const s = scrubber(KEY);
    const long = "y".repeat(20 * 1024 * 1024);
    expect(s.scrub(long)).toBe(long);
    expect(s.scrub(`${long} ${KEY}`).endsWith(` ${SECRET_REMOVED}`)).toBe(true);
  });
});
