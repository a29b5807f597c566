import { defineConfig } from "vitest/config";
import { LOAD_TESTS } from "./vitest.load.config.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Run on their own afterwards (vitest.load.config.ts).
    exclude: LOAD_TESTS,
    setupFiles: ["test-support/no-internet.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests start real servers on port 0; two workers fit these 2-core machines.
    maxWorkers: 2,
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
