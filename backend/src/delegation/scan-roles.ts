import type { RoleProblem } from "@mini-openclaw/protocol";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { readConfinedDir } from "../paths/walk-confined-dir.js";
import { AGENTS_DIR } from "../config/data-root-layout.js";
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
  const entries = (await readConfinedDir(dataRoot, AGENTS_DIR)) ?? [];
  const names = entries
    .filter((e) => e.name.endsWith(".md") && !e.name.startsWith(".") && e.kind !== "dir")
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    const path = `${AGENTS_DIR}/${name}`;
    let text: string;
    try {
      text = (await readConfinedText(dataRoot, path, MAX_ROLE_BYTES)).content;
    } catch (err) {
      if (isUnreadable(err) && err.reason === "missing") continue;
      problems.push({ path, reason: (err as Error).message });
      continue;
    }
    const parsed = parseRole(text, name.slice(0, -3), path);
    if (!parsed.ok) problems.push({ path, reason: parsed.reason });
    else if (roles.some((r) => r.name === parsed.role.name)) problems.push({ path, reason: `another role is already named "${parsed.role.name}"` });
    else roles.push(parsed.role);
  }
  return { roles, problems };
}
