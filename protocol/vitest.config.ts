import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Type tests (expectTypeOf) fail the run when the schemas and the types drift apart.
    typecheck: { enabled: true, include: ["src/**/*.test.ts"] },
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
