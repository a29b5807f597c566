import { describe, expect, it } from "vitest";
import { parseHelperAnswer } from "./helper-answer.js";

describe("the memory helper's answer", () => {
  it("is read from a code fence after prose; edits of another shape are dropped and said", () => {
    const answer = parseHelperAnswer(
      'Sure.\n```json\n{"memory":[{"file":"memory/MEMORY.md","edits":[{"op":"add","text":"- x","sources":[{"session_id":"s1","turn":2},{"bogus":1}]},{"op":"change","text":"no old"},{"op":"explode"}]}]}\n```',
    );
    expect(answer?.memory[0].edits).toEqual([{ op: "add", text: "- x", reason: "", sources: [{ session_id: "s1", turn: 2 }] }]);
    expect(answer?.dropped).toEqual(["memory[0].edits[1]: a change without 'old'", "memory[0].edits[2]: not {op, old, text}"]);
  });
  it("is null when the answer holds no proposals' JSON", () => {
    expect(parseHelperAnswer("Nothing to propose today.")).toBeNull();
    expect(parseHelperAnswer('{"advice": "x"}')).toBeNull();
  });
});
