import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "e2e/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser at a time on these 2-core machines.
    fileParallelism: false,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
