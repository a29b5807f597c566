import { describe, expect, it } from "vitest";
import { urlHost, urlPlace } from "./url-origin";

const origin = "http://127.0.0.1:8002";

describe("urlPlace", () => {
  it("keeps the workbench's own origin and inline data", () => {
    expect(urlPlace("/api/files?path=x", origin)).toBe("same-origin");
    expect(urlPlace("http://127.0.0.1:8002/x.png", origin)).toBe("same-origin");
    expect(urlPlace("data:image/png;base64,AAAA", origin)).toBe("inline");
    expect(urlPlace("blob:http://127.0.0.1:8002/uuid", origin)).toBe("inline");
  });
  it("calls every other origin external, including another local port and protocol-relative URLs", () => {
    expect(urlPlace("http://evil.example/?k=sk-123", origin)).toBe("external");
    expect(urlPlace("//evil.example/x.png", origin)).toBe("external");
    expect(urlPlace("http://127.0.0.1:9999/x.png", origin)).toBe("external");
    expect(urlPlace("http://localhost:8002/x.png", origin)).toBe("external");
  });
  it("refuses what is not http(s)", () => {
    expect(urlPlace("javascript:alert(1)", origin)).toBe("invalid");
    expect(urlPlace("", origin)).toBe("invalid");
    expect(urlPlace(undefined, origin)).toBe("invalid");
  });
  it("names the host", () => {
    expect(urlHost("http://evil.example:8080/a?b")).toBe("evil.example:8080");
  });
});
