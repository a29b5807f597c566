import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { RoleProblem } from "@mini-openclaw/protocol";
import { AGENTS_DIR } from "../workspace/workspace-files.js";
import { parseRole, type Role } from "./parse-role.js";

const MAX_ROLE_BYTES = 256 * 1024;

export interface RolesScan {
  roles: Role[];
  problems: RoleProblem[];
}

/** Reads every `agents/*.md`. A broken role is a problem with a reason and never hides the others. */
export async function scanRoles(dataRoot: string): Promise<RolesScan> {
  const roles: Role[] = [];
  const problems: RoleProblem[] = [];
  let names: string[];
  try {
    names = (await readdir(join(dataRoot, AGENTS_DIR))).filter((n) => n.endsWith(".md") && !n.startsWith(".")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { roles, problems };
    throw err;
  }
  for (const name of names) {
    const path = `${AGENTS_DIR}/${name}`;
    const file = join(dataRoot, path);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    if (info.size > MAX_ROLE_BYTES) {
      problems.push({ path, reason: `the file is ${info.size} bytes, over the ${MAX_ROLE_BYTES}-byte limit` });
      continue;
    }
    const parsed = parseRole(await readFile(file, "utf8"), name.slice(0, -3), path);
    if (!parsed.ok) problems.push({ path, reason: parsed.reason });
    else if (roles.some((r) => r.name === parsed.role.name)) problems.push({ path, reason: `another role is already named "${parsed.role.name}"` });
    else roles.push(parsed.role);
  }
  return { roles, problems };
}
