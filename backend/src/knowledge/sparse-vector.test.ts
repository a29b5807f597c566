import { describe, expect, it } from "vitest";
import { offlineEmbed } from "./offline-embedder.js";
import { dotStored, encodeVector } from "./sparse-vector.js";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i], 0);

describe("stored vectors", () => {
  it("sparse 8-bit vectors score within 1% of the exact cosine and rank the same; dense rows exactly", () => {
    const texts = ["Sauerkraut is cabbage fermented by lactic acid bacteria.", "Kimchi is napa cabbage with chili.", "A geostationary orbit takes one sidereal day.", "Tomatoes need sun."];
    const query = offlineEmbed("fermented cabbage");
    const exact = texts.map((t) => dot(offlineEmbed(t), query));
    const sparse = texts.map((t) => dotStored(encodeVector(offlineEmbed(t), "sparse-i8"), "sparse-i8", query));
    const dense = texts.map((t) => dotStored(encodeVector(offlineEmbed(t), "f32"), "f32", query));
    sparse.forEach((s, i) => expect(Math.abs(s - exact[i])).toBeLessThan(0.01));
    dense.forEach((d, i) => expect(d).toBeCloseTo(exact[i], 5));
    const order = (xs: number[]) => xs.map((x, i) => [x, i]).sort((a, b) => b[0] - a[0]).map(([, i]) => i);
    expect(order(sparse)).toEqual(order(exact));
    // About 500 of 2,048 values kept, three bytes each.
    expect(encodeVector(offlineEmbed(texts[0]), "sparse-i8").byteLength).toBeLessThan(2048);
  });
});
