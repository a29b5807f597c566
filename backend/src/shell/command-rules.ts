/**
 * Whether rules admit a shell command: the one notion of "this command may run" that approvals'
 * allow rules and a skill's `allowed-tools` (`Bash(git:*)`) share. The command is read with the Bash
 * grammar (plain-commands.ts); a rule names a command's first words or a glob over its words, and
 * never admits a form that does more than the rule shows (unsafe-forms.ts: `find -delete`,
 * `git -c`, `sed -i`, inline code, wrappers) unless it names every word of it.
 */
import { plainCommands, type Word } from "./plain-commands.js";
import { unsafeForm } from "./unsafe-forms.js";

/**
 * `*` any run of characters, `?` one; everything else literal. Over commands and code they never
 * cross a newline unless asked: a rule for one line is never a rule for the lines after it.
 */
export function globRegExp(glob: string, crossLines: boolean): RegExp {
  const any = crossLines ? "[\\s\\S]" : "[^\\n]";
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, `${any}*`).replace(/\?/g, any);
  return new RegExp(`^${body}$`);
}

export const isGlob = (pattern: string) => /[*?]/.test(pattern);

/**
 * Whether a rule admits one simple command: a glob over its words, or its first words (`git status`
 * admits `git status -s`, never `git statusx` or `git push`). A form that does more than the rule
 * shows is admitted only by a rule naming every word of it.
 */
export function ruleAdmits(rule: string, argv: Word[]): boolean {
  const values = argv.map((w) => w.value);
  if (isGlob(rule)) return globRegExp(rule.trim(), false).test(values.join(" ")) && unsafeForm(argv) === null;
  const words = rule.trim().split(/\s+/);
  if (!words.every((word, i) => values[i] === word)) return false;
  return values.length === words.length || unsafeForm(argv) === null;
}

/**
 * The rules that admit a command line, or null: a rule naming the whole line, or else the line is
 * plain and each of its simple commands is admitted by some rule.
 */
export function commandAdmittedBy(command: string, rules: readonly string[]): string[] | null {
  const whole = rules.find((rule) => rule.trim() === command.trim());
  if (whole !== undefined) return [whole];
  const parsed = plainCommands(command);
  if (!parsed.plain) return null;
  const used: string[] = [];
  for (const argv of parsed.commands) {
    const rule = rules.find((r) => ruleAdmits(r, argv));
    if (rule === undefined) return null;
    if (!used.includes(rule)) used.push(rule);
  }
  return used;
}
