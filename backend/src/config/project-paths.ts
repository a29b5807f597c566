import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// This file sits in backend/src/config (or backend/dist/config once built): three levels below the repo.
const here = dirname(fileURLToPath(import.meta.url));

export const backendDir = resolve(here, "..", "..");
export const projectRoot = resolve(backendDir, "..");
/** Pristine copies of every default workspace file; seeded into a data root where missing. */
export const defaultsDir = resolve(backendDir, "defaults");
/** The default files in Chinese (those not there come from `defaultsDir`). */
export const defaultsZhDir = resolve(backendDir, "defaults-zh");
export const defaultKeyFile = resolve(projectRoot, "KEY.md");
export const defaultFrontendDir = resolve(projectRoot, "frontend", "out");
