import { describe, expect, it } from "vitest";
import { parseMindMap, splitAnswer } from "./mind-map";

describe("parseMindMap", () => {
  it("accepts a title with nested children and fills in missing children", () => {
    const parsed = parseMindMap('{"title":"App","children":[{"title":"Users","children":[{"title":"Cooks"}]},{"title":"P0: login"}]}');
    expect(parsed).toEqual({
      ok: true,
      map: { title: "App", children: [{ title: "Users", children: [{ title: "Cooks", children: [] }] }, { title: "P0: login", children: [] }] },
    });
  });

  it("says where a map goes wrong", () => {
    expect(parseMindMap("{title: no quotes}")).toMatchObject({ ok: false, error: expect.stringMatching(/^not valid JSON/) });
    expect(parseMindMap('["a"]')).toEqual({ ok: false, error: 'map must be an object with a "title"' });
    expect(parseMindMap('{"title":"A","children":[{"title":""}]}')).toEqual({ ok: false, error: "map.children[0].title must be a non-empty string" });
    expect(parseMindMap('{"title":"A","children":{"title":"B"}}')).toEqual({ ok: false, error: "map.children must be an array" });
    expect(parseMindMap('{"title":"A","children":["B"]}')).toEqual({ ok: false, error: 'map.children[0] must be an object with a "title"' });
    let deep: unknown = { title: "leaf" };
    for (let i = 0; i < 9; i++) deep = { title: `level ${i}`, children: [deep] };
    expect(parseMindMap(JSON.stringify(deep))).toEqual({ ok: false, error: "the map is deeper than 8 levels" });
    const wide = { title: "root", children: Array.from({ length: 500 }, (_, i) => ({ title: `n${i}` })) };
    expect(parseMindMap(JSON.stringify(wide))).toEqual({ ok: false, error: "the map has more than 500 nodes" });
  });
});

describe("splitAnswer", () => {
  it("cuts closed mindmap blocks out of the Markdown and leaves an unfinished one as text", () => {
    const text = 'Intro\n\n```mindmap\n{"title":"A"}\n```\n\nAfter.\n\n```mindmap\n{"title":';
    expect(splitAnswer(text)).toEqual([
      { kind: "markdown", text: "Intro\n\n" },
      { kind: "mindmap", source: '{"title":"A"}' },
      { kind: "markdown", text: '\n\nAfter.\n\n```mindmap\n{"title":' },
    ]);
    expect(splitAnswer("plain")).toEqual([{ kind: "markdown", text: "plain" }]);
  });
});
