import { describe, expect, it } from "vitest";
import { convertToolResult, MAX_RESULT_CHARS } from "./mcp-result.js";

describe("convertToolResult", () => {
  it("adds structured content as JSON only when no text block carries it (the spec's backward-compatible form)", () => {
    expect(convertToolResult({ content: [], structuredContent: { t: 21 } }).output).toBe('[structured content]\n{\n  "t": 21\n}');
    expect(convertToolResult({ content: [{ type: "text", text: '{"t":21}' }], structuredContent: { t: 21 } }).output).toBe('{"t":21}');
  });

  it("never passes binary on: audio and blob resources as notes of their type and size", () => {
    const out = convertToolResult({
      content: [
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///x.bin", mimeType: "application/zip", blob: "AAAAAAAA" } },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello" } },
      ],
    }).output;
    expect(out).toBe("[audio: audio/wav, 3 bytes, not shown to the model]\n[resource file:///x.bin: application/zip, 6 bytes, not shown to the model]\n[resource file:///a.txt, text/plain]\nhello");
  });

  it("cuts past 100,000 characters and says how much was left out; isError is a failure", () => {
    const big = convertToolResult({ content: [{ type: "text", text: "y".repeat(MAX_RESULT_CHARS + 5) }] });
    expect(big.output.length).toBeLessThan(MAX_RESULT_CHARS + 200);
    expect(big.output).toMatch(/\[… 5 more characters left out: the result was 100005 characters\]$/);
    expect(big.details).toMatchObject({ truncated_chars: 5 });
    expect(convertToolResult({ content: [], isError: true })).toMatchObject({ ok: false, output: "Error: The tool failed and gave no reason." });
  });
});
