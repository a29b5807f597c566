/** Codes become statuses in one table; a reply that names no code gets its status's general one. */
import { describe, expect, it } from "vitest";
import { apiErrorCodeFor, apiErrorCodeSchema, httpStatusOf } from "./operation.js";

describe("error codes and HTTP statuses", () => {
  it("every code has an error status, and a status's own code is the general one, not a turn's", () => {
    for (const code of apiErrorCodeSchema.options) expect(httpStatusOf(code), code).toBeGreaterThanOrEqual(400);
    expect(apiErrorCodeFor(502)).toBe("upstream_failed");
    expect(apiErrorCodeFor(503)).toBe("unavailable");
    expect(apiErrorCodeFor(429)).toBe("limit_reached");
    expect(apiErrorCodeFor(504)).toBe("timed_out");
    expect(apiErrorCodeFor(500)).toBe("internal");
    expect(apiErrorCodeFor(418)).toBe("invalid_request");
    expect(httpStatusOf("model_timeout")).toBe(504);
    expect(httpStatusOf("vision_unsupported")).toBe(422);
  });
});
