/** The API described from the route schemas (issue 31): what a newcomer or a client generator reads. */
import { afterEach, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

describe("GET /api/openapi.json", () => {
  it("describes every API route from its schemas, and nothing but the API", async () => {
    wb = await startWorkbench({ script: [] });
    const response = await fetch(`${wb.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const spec = (await response.json()) as { openapi: string; info: { title: string }; components: { schemas: Record<string, { required?: string[] }> }; paths: Record<string, Record<string, { tags?: string[]; requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown> } }> } }>> };
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.info.title).toBe("Mini-OpenClaw");
    const paths = Object.keys(spec.paths);
    for (const path of ["/api/chat", "/api/sessions/{id}", "/api/sessions/{id}/stream", "/api/sessions/{id}/rewind", "/api/changes/revert", "/api/mcp", "/api/approvals/{id}", "/api/health"]) expect(paths).toContain(path);
    expect(paths.every((p) => p.startsWith("/api/"))).toBe(true);
    expect(paths).not.toContain("/api/openapi.json");
    const ref = (spec.paths["/api/changes/revert"].post.requestBody!.content["application/json"].schema as { $ref: string }).$ref;
    const revert = spec.components.schemas[ref.replace("#/components/schemas/", "")];
    expect(revert.required).toEqual(["change", "path"]);
    expect(spec.paths["/api/sessions/{id}/rewind"].post.tags).toEqual(["changes"]);
  });
});
