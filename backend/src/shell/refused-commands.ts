/**
 * The terminal's own refusals: commands that are never what a user wants from an agent, refused
 * before anything runs. The sandbox is what confines; this only catches the obvious (and keeps a
 * degraded, unsandboxed run from the worst mistakes). The command is read with the Bash grammar, as
 * approvals and skills read it (command-rules.ts), so quoting, `\rm`, a command inside `$( )`, a
 * loop or a function body is seen for what it runs, and `echo "rm -rf /"` is not refused.
 */
import { type BashNode, parseBash } from "./bash-parser.js";

/** A word as far as it can be read without running anything: quotes removed, anything else as written. */
function literal(node: BashNode): string {
  switch (node.type) {
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return node.namedChildren.map((c) => (c.type === "string_content" ? c.text : c.text)).join("");
    case "concatenation":
      return node.namedChildren.map(literal).join("");
    case "word":
      return node.text.replace(/\\(.)/g, "$1");
    default:
      return node.text;
  }
}

/** A simple command's name (without a path or a leading backslash) and its arguments. */
function argvOf(command: BashNode): { name: string; args: string[] } {
  const nameNode = command.childForFieldName("name");
  const name = nameNode ? literal(nameNode.namedChildren[0] ?? nameNode).split("/").pop()! : "";
  const args = command.namedChildren.filter((c) => c.type !== "command_name" && c.type !== "variable_assignment" && !c.type.endsWith("_redirect")).map(literal);
  return { name, args };
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
const DOWNLOADERS = new Set(["curl", "wget"]);
const SHUTDOWN = new Set(["shutdown", "reboot", "halt", "poweroff", "telinit"]);
const DISK_TOOLS = new Set(["wipefs", "fdisk", "parted", "sfdisk"]);
const ESCALATION = new Set(["sudo", "su", "doas"]);
/** `/`, `/*`, `~`, `~/`, `$HOME`, a top-level folder (`/usr`, `/etc/*`). */
const SYSTEM_OR_HOME = /^(\/|\/\*|~|~\/|\$HOME|\$\{HOME\}|\/[^/\s]+\/?\*?)$/;
const RAW_DEVICE = /^\/dev\/(sd|nvme|hd|vd|xvd|mmcblk)/;

const shortFlags = (args: string[]) => args.filter((a) => /^-[A-Za-z]+$/.test(a)).join("");

function refusedSimpleCommand({ name, args }: { name: string; args: string[] }): string | null {
  if (ESCALATION.has(name)) return "privilege escalation (sudo/su)";
  if (args.includes("--no-preserve-root")) return "rm --no-preserve-root";
  if (name === "rm") {
    const flags = shortFlags(args);
    const recursive = /[rRf]/.test(flags) || args.includes("--recursive") || args.includes("--force");
    if (recursive && args.some((a) => SYSTEM_OR_HOME.test(a))) return "recursive delete of a system or home folder";
  }
  if (/^mkfs(\.\w+)?$/.test(name) || DISK_TOOLS.has(name)) return "formatting or partitioning disks";
  if (name === "dd" && args.some((a) => a.startsWith("of=/dev/"))) return "writing to a raw device";
  if (SHUTDOWN.has(name) || (name === "init" && (args[0] === "0" || args[0] === "6"))) return "shutting the machine down";
  if ((name === "chmod" || name === "chown") && /R/.test(shortFlags(args)) && args.at(-1) === "/") {
    return name === "chmod" ? "changing permissions of the whole system" : "changing ownership of the whole system";
  }
  if ((name === "sysctl" && /w/.test(shortFlags(args))) || args.includes("/proc/sysrq-trigger")) return "changing kernel settings";
  return null;
}

/** `curl … | sh`: a download fed into a shell. */
function pipesDownloadIntoShell(pipeline: BashNode): boolean {
  const names = pipeline.namedChildren.map((c) => {
    const command = c.type === "command" ? c : c.descendantsOfType("command")[0];
    if (!command) return "";
    const { name, args } = argvOf(command);
    return ESCALATION.has(name) ? (args[0] ?? "") : name;
  });
  const download = names.findIndex((n) => DOWNLOADERS.has(n));
  return download >= 0 && names.slice(download + 1).some((n) => SHELLS.has(n));
}

/** `:(){ :|:& };:` — a function whose body pipes itself into itself in the background. */
function isClassicForkBomb(fn: BashNode): boolean {
  const name = fn.childForFieldName("name")?.text;
  if (name !== ":") return false;
  return fn.descendantsOfType("pipeline").some((p) => p.namedChildren.filter((c) => c.type === "command" && argvOf(c).name === name).length >= 2);
}

/** Why the terminal refuses to run `command`, or null. */
export function refusedCommandReason(command: string): string | null {
  const root = parseBash(command);
  // Too long to read: the sandbox and the write and time limits still hold.
  if (!root) return null;
  const walk = (node: BashNode): string | null => {
    switch (node.type) {
      case "command": {
        const reason = refusedSimpleCommand(argvOf(node));
        if (reason) return reason;
        break;
      }
      case "pipeline":
        if (pipesDownloadIntoShell(node)) return "piping a download into a shell";
        break;
      case "function_definition":
        if (isClassicForkBomb(node)) return "a fork bomb";
        break;
      case "file_redirect": {
        const target = node.namedChildren.filter((c) => c.type !== "file_descriptor").at(-1);
        if (target && RAW_DEVICE.test(literal(target))) return "writing to a raw device";
        if (target && literal(target) === "/proc/sysrq-trigger") return "changing kernel settings";
        break;
      }
    }
    for (const child of node.namedChildren) {
      const reason = walk(child);
      if (reason) return reason;
    }
    return null;
  };
  return walk(root);
}
