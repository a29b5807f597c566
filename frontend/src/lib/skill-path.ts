/** A skill's `<location>` as the prompt writes it (`./skills/x/SKILL.md`, or under a prefix) as a data-root path. */
export function skillPath(location: string, prefix: string): string {
  const clean = location.replace(/^\.\//, "");
  const p = prefix.replace(/^\.\/?/, "");
  return p && clean.startsWith(`${p}/`) ? clean.slice(p.length + 1) : clean;
}
