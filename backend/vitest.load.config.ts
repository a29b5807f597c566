import { defineConfig } from "vitest/config";

/**
 * The load and race tests, run after the rest, one file at a time: they measure latency under
 * thousands of connections, a process racing the server, a browser on hostile pages or hooks that
 * misbehave, and must not share the machine's two cores with other test files (nor slow those down).
 */
export const LOAD_TESTS = ["test/adversary/load.test.ts", "test/adversary/races.test.ts", "test/adversary/browser-pages.test.ts", "test/adversary/hook-attacks.test.ts"];

export default defineConfig({
  test: {
    include: LOAD_TESTS,
    setupFiles: ["test-support/no-internet.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    reporters: ["default", ["json", { outputFile: "test-results/vitest-load.json" }]],
  },
});
