// Prints one plain closing line for the whole suite ("N passed, N failed, N skipped") from the
// JSON reports the test runners leave behind, and exits non-zero if any test failed or none ran.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reports = ["protocol/test-results/vitest.json", "backend/test-results/vitest.json", "backend/test-results/vitest-load.json", "frontend/test-results/vitest.json"]
  .map((p) => join(root, p))
  .filter(existsSync);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
