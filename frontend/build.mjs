// Placeholder build until the Next.js IDE lands (issue 5): copies the static page to out/,
// which the backend serves at http://127.0.0.1:8002/.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
rmSync(join(here, "out"), { recursive: true, force: true });
mkdirSync(join(here, "out"), { recursive: true });
cpSync(join(here, "public"), join(here, "out"), { recursive: true });
console.log("frontend: placeholder page copied to frontend/out");
