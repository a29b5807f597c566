import { describe, expect, it } from "vitest";
import { pathUnder } from "./path-under.js";

describe("pathUnder", () => {
  it("is the relative path inside the root, and null outside it", () => {
    expect(pathUnder("/data", "/data/KEY.md")).toBe("KEY.md");
    expect(pathUnder("/data", "/data")).toBe("");
    expect(pathUnder("/data", "/data/..notes/x")).toBe("..notes/x");
    expect(pathUnder("/data", "/KEY.md")).toBeNull();
    expect(pathUnder("/data", "/data-other/KEY.md")).toBeNull();
    expect(pathUnder("/data/a", "/data")).toBeNull();
  });
});
