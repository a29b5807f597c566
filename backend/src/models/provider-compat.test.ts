/** Quirks are detected from the documented server's host, and a profile's declared ones win. */
import { describe, expect, it } from "vitest";
import { compatInForce } from "./provider-compat.js";

describe("a profile's quirks in force", () => {
  it("DeepSeek's API gives tool steps' reasoning back; OpenAI's (also when no base URL is set) never, and takes <think> as text", () => {
    expect(compatInForce("https://api.deepseek.com")).toEqual({ reasoning_back: "tool_steps", think_tags: true, detected_for: "DeepSeek" });
    expect(compatInForce("https://API.DeepSeek.com/v1")).toMatchObject({ reasoning_back: "tool_steps" });
    expect(compatInForce(null)).toEqual({ reasoning_back: "never", think_tags: false, detected_for: "OpenAI" });
    expect(compatInForce("https://api.openai.com/v1")).toMatchObject({ detected_for: "OpenAI" });
  });

  it("an unknown server (a local one, a proxy that only looks like a known host) is auto", () => {
    expect(compatInForce("http://127.0.0.1:11434/v1")).toEqual({ reasoning_back: "auto", think_tags: true, detected_for: null });
    expect(compatInForce("https://api.deepseek.com.example.net/v1")).toMatchObject({ detected_for: null });
    expect(compatInForce("not a url")).toMatchObject({ reasoning_back: "auto" });
  });

  it("declared quirks win over detected ones, field by field", () => {
    expect(compatInForce("https://api.deepseek.com", { reasoning_back: "never" })).toEqual({ reasoning_back: "never", think_tags: true, detected_for: "DeepSeek" });
    expect(compatInForce("http://localhost:8000/v1", { think_tags: false })).toEqual({ reasoning_back: "auto", think_tags: false, detected_for: null });
  });
});
