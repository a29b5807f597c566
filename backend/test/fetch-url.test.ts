import { lookup } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FETCH_LIMITS } from "../src/tools/fetch-url.js";
import { startLocalWeb, type LocalWeb } from "../test-support/local-web-server.js";
import { startToolHarness, type ToolHarness } from "../test-support/tool-harness.js";

let web: LocalWeb;
let other: LocalWeb; // a loopback service that is NOT allowlisted
let h: ToolHarness;
const get = (url: string, extra: { max_chars?: number; start?: number } = {}) => h.run("fetch_url", { url, ...extra });

beforeAll(async () => {
  other = await startLocalWeb();
  web = await startLocalWeb({
    "/to-loopback": (res) => res.writeHead(302, { location: `${other.url}/page.html` }).end(),
  });
  h = await startToolHarness({
    env: { FETCH_ALLOWLIST: `127.0.0.1:${web.port}` },
    // A name that resolves to loopback, as a rebinding attacker's DNS would answer.
    lookup: (hostname, callback) =>
      hostname === "rebind.example"
        ? callback(null, [{ address: "127.0.0.1", family: 4 }])
        : lookup(hostname, { all: true }, callback),
  });
});
afterAll(async () => {
  await h?.close();
  await web?.close();
  await other?.close();
});

describe("fetch_url content", () => {
  it("turns an HTML page into Markdown with its headings, links and text, and no tags or chrome", async () => {
    const result = await get(`${web.url}/page.html`);
    expect(result.ok).toBe(true);
    expect(result.output).toContain("Title: Cloud Atlas");
    expect(result.output).toContain("# Clouds");
    expect(result.output).toContain("## Kinds");
    expect(result.output).toContain("Clouds are **visible** masses of droplets.");
    expect(result.output).toContain("[cumulus](https://example.org/cumulus)");
    expect(result.output).toMatch(/-\s+Cirrus/);
    expect(result.output).not.toMatch(/<[a-z/!]/i);
    for (const chrome of ["tracking", "alert(1)", "About us", "Site banner", "footer text", "color: red"]) {
      expect(result.output).not.toContain(chrome);
    }
  });

  it("pretty-prints JSON", async () => {
    const result = await get(`${web.url}/data.json`);
    expect(result.output).toContain('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
  });

  it("refuses binaries with a clear message", async () => {
    const result = await get(`${web.url}/image.png`);
    expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/binary content \(image\/png, 8 bytes\)/) });
  });

  it("cuts a 50 MB body off at the download limit", async () => {
    const result = await get(`${web.url}/big.txt`, { max_chars: 1000 });
    expect(result.details).toMatchObject({ download_cut: true, bytes: FETCH_LIMITS.maxDownloadBytes });
    expect(result.output).toContain("[download cut off at the 5 MB limit]");
    expect(result.output).toMatch(/call fetch_url with start=1000 to read on/);
  });

  it("follows a redirect within the rules and stops a redirect loop", async () => {
    expect((await get(`${web.url}/to-page`)).output).toContain("# Clouds");
    expect((await get(`${web.url}/loop`)).output).toMatch(/more than 5 redirects/);
  });

  it("refuses schemes other than http and https", async () => {
    expect((await get("file:///etc/passwd")).output).toMatch(/only http and https/);
    expect((await get("not a url")).output).toMatch(/not a valid URL/);
  });
});

describe("fetch_url refuses non-public addresses, checked at connect time", () => {
  const cases: Array<[string, (port: number) => string, RegExp]> = [
    ["127.0.0.1", (p) => `http://127.0.0.1:${p}/page.html`, /127\.0\.0\.1 is a loopback address/],
    ["localhost", (p) => `http://localhost:${p}/page.html`, /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ["[::1]", (p) => `http://[::1]:${p}/`, /::1 is a loopback address/],
    ["0x7f000001", (p) => `http://0x7f000001:${p}/`, /127\.0\.0\.1 is a loopback address/],
    ["2130706433", (p) => `http://2130706433:${p}/`, /127\.0\.0\.1 is a loopback address/],
    ["169.254.169.254 (cloud metadata)", () => "http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a linkLocal address/],
    ["10.0.0.1", () => "http://10.0.0.1/", /10\.0\.0\.1 is a private address/],
    ["[::ffff:127.0.0.1]", (p) => `http://[::ffff:127.0.0.1]:${p}/`, /loopback address/],
    ["a name that resolves to loopback", (p) => `http://rebind.example:${p}/`, /rebind\.example resolves to 127\.0\.0\.1, a loopback address/],
  ];
  for (const [label, url, reason] of cases) {
    it(label, async () => {
      const before = other.hits.length;
      const result = await get(url(other.port));
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(reason);
      expect(result.output).toMatch(/FETCH_ALLOWLIST/);
      expect(other.hits.length).toBe(before); // nothing reached the service
    });
  }

  it("a redirect to loopback", async () => {
    const result = await get(`${web.url}/to-loopback`);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(other.hits).not.toContain("/page.html");
  });

  it("the allowlisted host:port is reachable, other ports of the same host are not", async () => {
    expect((await get(`${web.url}/data.json`)).ok).toBe(true);
    expect((await get(`${other.url}/data.json`)).ok).toBe(false);
  });
});
