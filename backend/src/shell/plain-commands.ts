/**
 * A shell command as the simple commands it runs, when it is nothing more than that: words (bare,
 * quoted, escaped, concatenated) joined by `&&`, `||`, `;`, `|` or newlines, with redirections only
 * to /dev/null or between descriptors. Anything that makes the shell do more (substitution of any
 * kind, a variable's expansion or assignment, a subshell or group, a function, a here-doc, `&`,
 * control flow) makes it not plain, with the reason. Only a plain command can run unasked.
 */
import { type BashNode, parseBash } from "./bash-parser.js";

/** One argument as the program receives it. `glob`: unquoted `*`, `?`, `[` or `{`, which the shell may expand into other words. */
export interface Word {
  value: string;
  glob: boolean;
}

export type PlainCommands = { plain: true; commands: Word[][] } | { plain: false; reason: string };

class NotPlain extends Error {}

const WHY: Record<string, string> = {
  command_substitution: "a command substitution",
  process_substitution: "a process substitution",
  expansion: "a parameter expansion",
  simple_expansion: "a variable expansion",
  arithmetic_expansion: "an arithmetic expansion",
  ansi_c_string: "a $'...' string",
  translated_string: 'a $"..." string',
  variable_assignment: "a variable assignment",
  declaration_command: "a declaration (export, local, declare...)",
  unset_command: "unset",
  subshell: "a subshell",
  compound_statement: "a { ... } group",
  function_definition: "a function definition",
  heredoc_redirect: "a here-document",
  herestring_redirect: "a here-string",
  if_statement: "an if statement",
  while_statement: "a loop",
  for_statement: "a loop",
  c_style_for_statement: "a loop",
  case_statement: "a case statement",
  test_command: "a [[ ]] test",
  negated_command: "a negated command",
  brace_expression: "a brace expansion",
};

const fail = (why: string): never => {
  throw new NotPlain(why);
};

const whyNot = (node: BashNode) => WHY[node.type] ?? `${node.isNamed ? "a" : "the token"} ${node.type}`;

/** An unquoted word's value: a backslash keeps the next character, a backslash-newline is nothing. */
function unescapeWord(text: string): Word {
  let value = "";
  let glob = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      if (text[i + 1] !== "\n") value += text[i + 1] ?? "";
      i++;
      continue;
    }
    // Patterns and brace expansions (`{a,b}`, `{1..3}`): the shell may turn them into other words.
    if (c === "*" || c === "?" || c === "[" || c === "{") glob = true;
    value += c;
  }
  return { value, glob };
}

/** Inside double quotes a backslash escapes only $ ` " \ and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

function wordOf(node: BashNode): Word {
  switch (node.type) {
    case "word":
    case "number":
      return unescapeWord(node.text);
    case "raw_string":
      return { value: node.text.slice(1, -1), glob: false };
    case "string": {
      let value = "";
      for (const child of node.children) {
        if (child.type === "string_content") value += unescapeDoubleQuoted(child.text);
        else if (child.type !== '"') fail(whyNot(child));
      }
      return { value, glob: false };
    }
    case "concatenation": {
      const parts = node.children.map(wordOf);
      return { value: parts.map((p) => p.value).join(""), glob: parts.some((p) => p.glob) };
    }
    default:
      return fail(whyNot(node));
  }
}

function simpleCommand(node: BashNode): Word[] {
  const words: Word[] = [];
  for (const child of node.children) {
    if (child.type === "command_name") {
      if (child.namedChildren.length !== 1) fail("a command name that is not a plain word");
      words.push(wordOf(child.namedChildren[0]));
    } else words.push(wordOf(child));
  }
  if (words.length === 0) fail("an empty command");
  return words;
}

/** `2>/dev/null`, `&>/dev/null`, `2>&1`, `>&2`, `<&-`: they write nowhere and run nothing. */
function checkRedirect(node: BashNode): void {
  if (node.type !== "file_redirect") fail(whyNot(node));
  const operator = node.children.find((c) => !c.isNamed)?.type ?? "";
  const target = node.namedChildren.filter((c) => c.type !== "file_descriptor");
  if (target.length !== 1) fail("a redirection without one target");
  const to = wordOf(target[0]);
  if ((operator === ">&" || operator === "<&") && /^([0-9]+|-)$/.test(to.value) && !to.glob) return;
  if ([">", ">>", "&>", "&>>", "<"].includes(operator) && to.value === "/dev/null" && !to.glob) return;
  fail(`a redirection to ${to.value || "a file"} (only /dev/null and other descriptors are plain)`);
}

function collect(node: BashNode, out: Word[][]): void {
  switch (node.type) {
    case "program":
    case "list":
    case "pipeline":
      for (const child of node.children) {
        if (child.type === "comment") continue;
        if (!child.isNamed) {
          // `;` and newlines between commands, `&&` and `||` in lists, `|` in pipelines; `&` runs in the background.
          if ([";", "&&", "||", "|"].includes(child.type) && (child.type !== "|" || node.type === "pipeline")) continue;
          fail(child.type === "&" ? "a command sent to the background (&)" : `the operator ${child.type}`);
        }
        collect(child, out);
      }
      return;
    case "redirected_statement": {
      const isRedirect = (c: BashNode) => c.type.endsWith("_redirect");
      for (const child of node.namedChildren) if (!isRedirect(child)) collect(child, out);
      for (const child of node.namedChildren) if (isRedirect(child)) checkRedirect(child);
      if (node.children.some((c) => !c.isNamed)) fail("an operator inside a redirected statement");
      return;
    }
    case "command":
      out.push(simpleCommand(node));
      return;
    default:
      fail(whyNot(node));
  }
}

export function plainCommands(command: string): PlainCommands {
  const root = parseBash(command);
  if (!root) return { plain: false, reason: "the command is too long to check" };
  if (root.hasError) return { plain: false, reason: "the command does not parse as Bash" };
  const commands: Word[][] = [];
  try {
    collect(root, commands);
  } catch (err) {
    if (err instanceof NotPlain) return { plain: false, reason: `it has ${err.message}` };
    throw err;
  }
  if (commands.length === 0) return { plain: false, reason: "it runs no command" };
  return { plain: true, commands };
}
