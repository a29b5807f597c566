/**
 * `${VAR}` and `${VAR:-default}` in an MCP.json value, as Claude Code expands them. An unset `${VAR}`
 * with no default becomes "" and is named in `unset`. A `$` not followed by `{` is literal, and so is
 * an unterminated `${`: people paste prices and regexes.
 */
export function expandVars(text: string, env: Record<string, string | undefined>, unset: Set<string>): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("${", i);
    if (start === -1) break;
    const end = text.indexOf("}", start + 2);
    if (end === -1) break;
    out += text.slice(i, start);
    const body = text.slice(start + 2, end);
    const split = body.indexOf(":-");
    const name = split === -1 ? body : body.slice(0, split);
    const fallback = split === -1 ? undefined : body.slice(split + 2);
    if (!isVarName(name)) {
      out += text.slice(start, end + 1);
    } else {
      const value = env[name];
      if (value !== undefined && value !== "") out += value;
      else if (fallback !== undefined) out += fallback;
      else unset.add(name);
    }
    i = end + 1;
  }
  return out + text.slice(i);
}

function isVarName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    const digit = c >= 48 && c <= 57;
    if (!(letter || (digit && i > 0))) return false;
  }
  return true;
}
