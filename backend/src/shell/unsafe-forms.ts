/**
 * The one notion of a command form that does more than its rule shows: a wrapper that runs the
 * command it is given, an interpreter given code inline, or a flag that writes a file or runs a
 * program (per command, as Codex lists them). A prefix rule ("find", "git log", "python3 x.py") never
 * admits such a form; only a rule naming the whole command does.
 */
import { sedScriptReadsOnly } from "./sed-script.js";
import type { Word } from "./plain-commands.js";

/** Programs whose arguments are another command they run. */
const WRAPPERS = new Set([
  "env", "xargs", "timeout", "nice", "nohup", "stdbuf", "time", "command", "builtin", "exec", "eval", "source", ".",
  "sudo", "doas", "su", "runuser", "setpriv", "chroot", "unshare", "nsenter", "setsid", "flock", "watch", "parallel",
  "script", "strace", "ltrace", "ionice", "taskset", "chrt", "busybox", "caffeinate", "fakeroot", "proot", "firejail",
]);

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash"]);

/** Interpreters, and the flags that hand them code inline. */
const INLINE_CODE: Record<string, string[]> = {
  python: ["-c"], python2: ["-c"], python3: ["-c"], pypy3: ["-c"],
  node: ["-e", "--eval", "-p", "--print"], nodejs: ["-e", "--eval", "-p", "--print"], bun: ["-e", "--eval", "-p", "--print"],
  deno: ["eval"], perl: ["-e", "-E"], ruby: ["-e"], php: ["-r"], lua: ["-e"], luajit: ["-e"], Rscript: ["-e"], tclsh: [], osascript: ["-e"],
};

/** Programs that always run a program given inline. */
const ALWAYS_CODE = new Set(["awk", "gawk", "mawk", "nawk", "jshell", "irb"]);

const isFlag = (w: string) => w.startsWith("-") && w !== "-" && w !== "--";
const positional = (args: Word[]) => {
  const out: Word[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a.value === "--") ended = true;
    else if (ended || !isFlag(a.value)) out.push(a);
  }
  return out;
};
/** A short-option cluster (`-nz`) holding this letter. */
const shortHas = (w: string, letter: string) => /^-[A-Za-z0-9]+$/.test(w) && w.slice(1).includes(letter);
const longIs = (w: string, name: string) => w === name || w.startsWith(`${name}=`);

type Check = (args: Word[]) => string | null;

const findCheck: Check = (args) => {
  const bad = args.find((a) => ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"].includes(a.value));
  return bad ? `find ${bad.value} runs a command, deletes or writes files` : null;
};

const rgCheck: Check = (args) => {
  const bad = args.find((a) => longIs(a.value, "--pre") || longIs(a.value, "--hostname-bin") || a.value === "--search-zip" || (!a.value.startsWith("--") && shortHas(a.value, "z")));
  return bad ? `rg ${bad.value} runs other programs` : null;
};

/** Git's own options before the subcommand that take a value as the next word. */
const GIT_GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);
const GIT_WRITING = ["--output", "--ext-diff", "--textconv", "--exec", "--upload-pack", "--receive-pack", "--open-files-in-pager"];
const gitCheck: Check = (args) => {
  let i = 0;
  // Before the subcommand: git's own options (`-c` and `--config-env` set configuration that can run programs).
  for (; i < args.length && isFlag(args[i].value); i++) {
    const v = args[i].value;
    if (v === "-c" || (v.startsWith("-c") && !v.startsWith("--")) || longIs(v, "--config-env")) return "git -c sets configuration that can run programs";
    if (longIs(v, "--exec-path")) return "git --exec-path runs programs from another folder";
    if (v === "-p" || v === "--paginate") return "git --paginate runs a pager program";
    if (GIT_GLOBAL_WITH_VALUE.has(v)) i++;
  }
  for (const a of args.slice(i + 1)) {
    if (/^-O/.test(a.value)) return "git grep -O runs a pager program";
    const long = GIT_WRITING.find((flag) => longIs(a.value, flag));
    if (long) return `git ${long} writes a file or runs a program`;
  }
  return null;
};

const SED_SHORT_OK = /^-[nErsuz]+$/;
const SED_LONG_OK = ["--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox"];
const sedCheck: Check = (args) => {
  const scripts: string[] = [];
  let scriptFromFlag = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (ended || !isFlag(v)) {
      if (v === "--" && !ended) {
        ended = true;
        continue;
      }
      if (!scriptFromFlag && scripts.length === 0) scripts.push(v);
      continue;
    }
    if (v === "-e" || v === "--expression") {
      scripts.push(args[++i]?.value ?? "");
      scriptFromFlag = true;
    } else if (v.startsWith("--expression=")) {
      scripts.push(v.slice("--expression=".length));
      scriptFromFlag = true;
    } else if (v.startsWith("-e") && !v.startsWith("--")) {
      scripts.push(v.slice(2));
      scriptFromFlag = true;
    } else if (!SED_SHORT_OK.test(v) && !SED_LONG_OK.includes(v)) return `sed ${v} edits files in place or reads a script file`;
  }
  if (scripts.length === 0) return "sed without a script";
  return scripts.every(sedScriptReadsOnly) ? null : "the sed script writes a file or runs a command (w, W, r, R, e, or an s///w or s///e)";
};

const sortCheck: Check = (args) => {
  const bad = args.find((a) => longIs(a.value, "--output") || longIs(a.value, "--compress-program") || (!a.value.startsWith("--") && shortHas(a.value, "o")));
  return bad ? `sort ${bad.value} writes a file or runs a program` : null;
};

/** Per command, what makes it write or run more than it reads. */
const FLAG_CHECKS: Record<string, Check> = {
  find: findCheck,
  rg: rgCheck,
  git: gitCheck,
  sed: sedCheck,
  sort: sortCheck,
  uniq: (args) => (positional(args).length >= 2 ? "uniq with two files writes the second" : null),
  tee: (args) => (positional(args).length > 0 ? "tee writes files" : null),
  tree: (args) => (args.some((a) => a.value === "-o" || shortHas(a.value, "o")) ? "tree -o writes a file" : null),
  xxd: (args) => (positional(args).length >= 2 ? "xxd with two files writes the second" : null),
  date: (args) => (args.some((a) => a.value === "-s" || longIs(a.value, "--set") || shortHas(a.value, "s")) ? "date -s sets the clock" : null),
  file: (args) => (args.some((a) => a.value === "-C" || a.value === "--compile") ? "file -C writes a magic file" : null),
  base64: (args) => (args.some((a) => a.value === "-o" || longIs(a.value, "--output") || (a.value.startsWith("-o") && !a.value.startsWith("--"))) ? "base64 -o writes a file" : null),
};

function interpreterCheck(name: string, args: Word[]): string | null {
  if (ALWAYS_CODE.has(name)) return `${name} runs a program given inline`;
  if (SHELLS.has(name)) {
    if (args.some((a) => a.value === "-s" || a.value === "-c" || (/^-[A-Za-z]+$/.test(a.value) && /[cs]/.test(a.value.slice(1))))) return `${name} runs commands given inline`;
    if (positional(args).length === 0) return `${name} reads the commands it runs from its input`;
    return null;
  }
  const inline = INLINE_CODE[name];
  if (!inline) return null;
  const first = args.find((a) => !isFlag(a.value) || inline.includes(a.value) || inline.some((f) => a.value.startsWith(`${f}=`)));
  if (args.some((a) => inline.includes(a.value) || inline.some((f) => f.startsWith("--") && a.value.startsWith(`${f}=`)))) return `${name} runs code given inline`;
  if (name.startsWith("python") && args.some((a) => /^-[A-Za-z]*c$/.test(a.value))) return `${name} runs code given inline`;
  if (!first || first.value === "-") return `${name} reads the code it runs from its input`;
  return null;
}

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** Why this simple command does more than a prefix rule shows, or null when it does not. */
export function unsafeForm(argv: Word[]): string | null {
  if (argv.length === 0) return "an empty command";
  const name = basename(argv[0].value);
  const args = argv.slice(1);
  if (WRAPPERS.has(name)) return `${name} runs the command it is given`;
  const code = interpreterCheck(name, args);
  if (code) return code;
  const check = FLAG_CHECKS[name];
  if (!check) return null;
  // A pattern the shell expands could name one of the flags above (a file called "-delete").
  if (args.some((a) => a.glob)) return `an unquoted pattern in a ${name} command could expand to one of its writing options`;
  return check(args);
}

/** Programs that run code: a rule proposed for them names the whole command. */
export function runsCodeOrCommands(argv: Word[]): boolean {
  const name = basename(argv[0]?.value ?? "");
  return WRAPPERS.has(name) || SHELLS.has(name) || ALWAYS_CODE.has(name) || name in INLINE_CODE;
}
