import { describe, expect, it } from "vitest";
import { plainCommands } from "./plain-commands.js";
import { sedScriptReadsOnly } from "./sed-script.js";
import { unsafeForm } from "./unsafe-forms.js";

const argvs = (command: string) => {
  const parsed = plainCommands(command);
  return parsed.plain ? parsed.commands.map((c) => c.map((w) => w.value)) : parsed.reason;
};

describe("plainCommands", () => {
  it("gives each simple command's words as the program receives them", () => {
    expect(argvs("ls -la | head")).toEqual([["ls", "-la"], ["head"]]);
    expect(argvs("grep -rn 'a|b' dir 2>/dev/null")).toEqual([["grep", "-rn", "a|b", "dir"]]);
    expect(argvs("ls /nope || echo none")).toEqual([["ls", "/nope"], ["echo", "none"]]);
    expect(argvs("ls\npwd; echo a && echo b")).toEqual([["ls"], ["pwd"], ["echo", "a"], ["echo", "b"]]);
    expect(argvs(`l\\s 'a'"b"c "x\\"y" find . -exec x \\;`)).toEqual([["ls", "abc", 'x"y', "find", ".", "-exec", "x", ";"]]);
    expect(argvs("ls >/dev/null 2>&1 && ls >&2 &>/dev/null")).toEqual([["ls"], ["ls"]]);
    expect(argvs("cat < /dev/null # a comment")).toEqual([["cat"]]);
  });

  it("refuses, with the reason, everything that makes the shell do more", () => {
    const cases: Array<[string, RegExp]> = [
      ["ls $(touch x)", /command substitution/],
      ["ls `touch x`", /command substitution/],
      ["cat <(touch x)", /process substitution/],
      ["echo ${X:=$(touch x)}", /parameter expansion/],
      ["echo $HOME", /variable expansion/],
      ['echo "$(touch x)"', /command substitution/],
      ["echo $((1+2))", /arithmetic/],
      ["X=1 ls", /variable assignment/],
      ["export X=1", /declaration/],
      ["(ls)", /subshell/],
      ["{ ls; }", /group/],
      ["f() { ls; }", /function/],
      ["ls &", /background/],
      ["echo hi > x", /redirection to x/],
      ["ls 2> x", /redirection to x/],
      ["echo hi >> /dev/null.x", /redirection/],
      ["cat <<EOF\nhi\nEOF", /here-document/],
      ["cat <<< hi", /here-string/],
      ["if true; then ls; fi", /if statement/],
      ["for i in 1; do ls; done", /loop/],
      ["! ls", /negated/],
      ["$'ls'", /\$'...' string/],
      ["ls |& cat", /operator|token/],
      ["ls ((", /does not parse/],
      ["", /runs no command/],
    ];
    for (const [command, reason] of cases) expect({ command, result: argvs(command) }).toEqual({ command, result: expect.stringMatching(reason) });
  });

  it("marks unquoted patterns, which the shell may expand into other words", () => {
    const parsed = plainCommands("ls *.md '*.txt' \"?\" a\\*b {-delete,-name}");
    expect(parsed.plain && parsed.commands[0].map((w) => w.glob)).toEqual([false, true, false, false, false, true]);
  });
});

describe("sedScriptReadsOnly", () => {
  it("reads: printing, substituting, deleting, labels and text", () => {
    for (const script of ["1,5p", "s/a/b/g", "/x/d", "s|a/b|c|2", "$!N;P;D", "y/abc/xyz/", ":a;N;ba", "1~2p", "/start/,/end/{s/a/b/;p}", "\\,x,p", "10q", "s/a/b/I", "1i\\\nhello"]) {
      expect({ script, ok: sedScriptReadsOnly(script) }).toEqual({ script, ok: true });
    }
  });
  it("refuses what writes or runs: w, W, r, R, e, s///w, s///e, and what it cannot read", () => {
    for (const script of ["1w x", "W x", "r /etc/passwd", "R x", "e touch x", "s/a/b/w x", "s/a/b/e", "s/a/b", "v", "s/a/b/gw x", "1,5{w x\n}"]) {
      expect({ script, ok: sedScriptReadsOnly(script) }).toEqual({ script, ok: false });
    }
  });
});

describe("unsafeForm", () => {
  const form = (command: string) => {
    const parsed = plainCommands(command);
    if (!parsed.plain) throw new Error(parsed.reason);
    return unsafeForm(parsed.commands[0]);
  };
  it("names wrappers, inline code and writing flags", () => {
    for (const command of [
      "find . -delete", "find . -exec rm {} ;", "find . -fprint x", "rg --pre ./s p", "rg --pre=./s p", "rg -nz p", "rg --search-zip p",
      "git -c core.pager=x log", "git -ccore.pager=x status", "git -C . -c a=b log", "git --config-env=a=B log", "git -p log", "git log --output=x", "git diff --output x", "git diff --ext-diff", "git grep -Oless p",
      "sed -i s/a/b/ f", "sed -ni p f", "sed --in-place=.bak s/a/b/ f", "sed -f script f", "sed '1w x' f", "sed -e 's/a/b/e' f",
      "sort -o x f", "sort -ro x f", "sort --output=x f", "uniq a b", "tee x", "tree -o x", "date -s now", "xxd a b", "base64 -o x f",
      "bash -c ls", "bash -lc ls", "sh", "python3 -c 1", "python3", "python3 -", "node -e 1", "node --eval=1", "perl -e 1", "awk 1 f",
      "env ls", "xargs rm", "timeout 1 ls", "nice ls", "nohup ls", "stdbuf -o0 ls", "time ls", "eval ls", "source x", ". x", "exec ls",
      "command ls", "/usr/bin/env ls", "find * -name x", "find . {-delete,-name}",
    ]) expect({ command, form: form(command) }).toEqual({ command, form: expect.any(String) });
  });
  it("leaves plain reads and named scripts alone", () => {
    for (const command of ["find . -name '*.md' -type f", "rg -n p", "git log --oneline -5 -- dir", "git -C . status", "git log -p -- memory", "sed -n 1,5p f", "sed s/a/b/ f",
      "sort -rn f", "uniq -c f", "tree -L 1", "date -u +%Y", "xxd f", "python3 x.py", "bash x.sh", "node x.js", "ls *.md", "wc -l *.md"]) {
      expect({ command, form: form(command) }).toEqual({ command, form: null });
    }
  });
});
