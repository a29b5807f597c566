/**
 * The bubblewrap profile every tool process runs under (PLATFORM.md "Sandboxing" records what
 * held on these machines, as root, and what escaped):
 * - started as an unprivileged uid through setpriv when we are root (plain bwrap as root keeps
 *   every capability), with no new privileges and no capabilities;
 * - new user/pid/ipc/uts/cgroup namespaces, no network unless allowed;
 * - /usr and the few /etc files programs need, read-only; /proc/sys read-only; a private, sized /tmp;
 * - a seccomp filter refusing fallocate (so what a call puts on disk is written, and counted);
 * - the data root is a read-only tmpfs holding only the data folders, bound read-write (so
 *   code that shares the default data root, and KEY.md, are not even visible);
 * - an empty environment but for PATH, HOME, LANG: no keys.
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { pathUnder } from "../lib/path-under.js";
import { ATTACHMENTS_DIR } from "../config/data-root-layout.js";

/** Data folders the agent may change, and the ones it may only read. */
export const WRITABLE_DATA_DIRS = ["memory", "skills", "workspace", "knowledge", "agents"] as const;
export const READONLY_DATA_DIRS = ["sessions", "attachments"] as const;
const READONLY_DATA_FILES = ["SKILLS_SNAPSHOT.md"] as const;

const ETC_FILES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/group",
];
const ETC_NETWORK_FILES = ["/etc/resolv.conf", "/etc/hosts", "/etc/ssl", "/etc/ca-certificates", "/etc/gai.conf"];
const ROOT_LINKS = ["/bin", "/lib", "/lib64", "/lib32", "/sbin"];

/** Commands the sandbox adds where the system lacks them (e.g. `python`, which skills write for `python3`). */
const ALIAS_DIR = "/opt/sandbox-bin";

export const SANDBOX_ENV = {
  PATH: `/usr/local/bin:/usr/bin:/bin:${ALIAS_DIR}`,
  HOME: "/tmp",
  LANG: "C.UTF-8",
  TERM: "dumb",
  PYTHONDONTWRITEBYTECODE: "1",
};

export interface ProfileOptions {
  bwrapPath: string;
  /** Set when we are root: drop to `uid` through setpriv, binding through `staging`. */
  privilegeDrop: { setprivPath: string; unsharePath: string; staging: string; uid: number } | null;
  dataRoot: string;
  network: boolean;
  /** Paths inside the data root to hide (e.g. a KEY.md that happens to live there). */
  hidden: string[];
  /** The chat session the call is made for: its attachments folder is the only one mounted. */
  session: string | null;
}

/**
 * `python` wherever `python3` is: skills copied from public collections say `python scripts/x.py`, and
 * Debian ships no `python`. It sits last on PATH, so a system `python` wins.
 */
function commandAliases(): string[] {
  if (existsSync("/usr/bin/python") || !existsSync("/usr/bin/python3")) return [];
  return ["--dir", ALIAS_DIR, "--symlink", "/usr/bin/python3", `${ALIAS_DIR}/python`];
}

function systemBinds(network: boolean): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const link of ROOT_LINKS) {
    if (!existsSync(link)) continue;
    const info = lstatSync(link);
    if (info.isSymbolicLink()) args.push("--symlink", `usr${link}`, link);
    else args.push("--ro-bind", link, link);
  }
  for (const path of [...ETC_FILES, ...(network ? ETC_NETWORK_FILES : [])]) {
    if (existsSync(path)) args.push("--ro-bind", path, path);
  }
  return args;
}

/**
 * The data folders and files bound into the sandbox, with their access. Of `attachments/` only the
 * calling session's own folder is there (the API keeps each session's attachments its own; so does
 * the mount); a call of no session sees none.
 */
export function dataMounts(dataRoot: string, session: string | null = null): Array<{ name: string; path: string; writable: boolean; file: boolean }> {
  const mounts = [];
  for (const folder of [...WRITABLE_DATA_DIRS, ...READONLY_DATA_DIRS, ...READONLY_DATA_FILES]) {
    const name = folder === ATTACHMENTS_DIR ? (session ? `${ATTACHMENTS_DIR}/${session}` : null) : folder;
    if (name === null) continue;
    const path = join(dataRoot, name);
    if (!existsSync(path)) continue;
    mounts.push({ name, path, writable: (WRITABLE_DATA_DIRS as readonly string[]).includes(name), file: !lstatSync(path).isDirectory() });
  }
  return mounts;
}

/**
 * Where the data root is inside the sandbox: a neutral path, so `pwd`, `df` and error messages never
 * tell the agent (or what it reads) where the data lives on the host, or whose home it is in.
 */
export const SANDBOX_DATA_ROOT = "/workbench";

function dataBinds(dataRoot: string, hidden: string[], staging: string | null, session: string | null): string[] {
  const args = ["--tmpfs", SANDBOX_DATA_ROOT];
  for (const mount of dataMounts(dataRoot, session)) {
    const source = staging ? join(staging, mount.name) : mount.path;
    args.push(mount.writable ? "--bind" : "--ro-bind", source, join(SANDBOX_DATA_ROOT, mount.name));
  }
  for (const path of hidden) {
    const inside = pathUnder(dataRoot, path);
    if (existsSync(path) && inside) args.push("--ro-bind", "/dev/null", join(SANDBOX_DATA_ROOT, inside));
  }
  // Top-level writes fail loudly instead of vanishing into the tmpfs.
  args.push("--remount-ro", SANDBOX_DATA_ROOT);
  return args;
}

/**
 * bwrap resolves bind sources as the unprivileged user, who cannot traverse e.g. /root (0700).
 * So, as root, the data folders are first bound onto a world-traversable, empty staging folder
 * inside a private mount namespace (the host never sees these mounts), and bwrap binds from there.
 * Arguments are passed positionally, never interpolated into the script.
 */
const STAGE_SCRIPT = [
  'staging=$1; shift',
  'while [ "$1" != "--" ]; do mount --bind "$1" "$staging/$2" || exit 111; shift 2; done',
  "shift",
  'exec "$@"',
].join("\n");

function privilegeDropArgv(drop: NonNullable<ProfileOptions["privilegeDrop"]>, dataRoot: string, session: string | null): string[] {
  const stage = dataMounts(dataRoot, session).flatMap((m) => [m.path, m.name]);
  return [
    drop.unsharePath,
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    STAGE_SCRIPT,
    "sh",
    drop.staging,
    ...stage,
    "--",
    drop.setprivPath,
    `--reuid=${drop.uid}`,
    `--regid=${drop.uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
  ];
}

/** The descriptor a sandboxed process is started with that holds its seccomp program (sandbox/seccomp-filter.ts). */
export const SECCOMP_FD = 3;

export interface ProcessLimits {
  /** RLIMIT_NPROC; null where it would count the workbench's own processes too. */
  maxProcesses: number | null;
  /** RLIMIT_AS of each process. */
  memoryBytes: number;
  /** RLIMIT_FSIZE: the largest file a process may write. */
  maxFileBytes: number;
  /** The size of /tmp, a tmpfs that counts against the host's memory. */
  tmpBytes: number;
}

/** argv (command first) that runs `program` inside the sandbox, the data root at SANDBOX_DATA_ROOT and as its cwd. */
export function sandboxArgv(options: ProfileOptions, program: string[], limits: ProcessLimits): string[] {
  const privilegeDrop = options.privilegeDrop ? privilegeDropArgv(options.privilegeDrop, options.dataRoot, options.session) : [];
  const env = Object.entries(SANDBOX_ENV).flatMap(([k, v]) => ["--setenv", k, v]);
  const rlimits = [
    "/usr/bin/prlimit",
    `--fsize=${limits.maxFileBytes}`,
    `--as=${limits.memoryBytes}`,
    "--nofile=1024",
    ...(limits.maxProcesses ? [`--nproc=${limits.maxProcesses}`] : []),
    "--",
  ];
  return [
    ...privilegeDrop,
    options.bwrapPath,
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(options.network ? [] : ["--unshare-net"]),
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    ...env,
    ...systemBinds(options.network),
    ...commandAliases(),
    "--proc",
    "/proc",
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    "--dev",
    "/dev",
    "--size",
    String(limits.tmpBytes),
    "--tmpfs",
    "/tmp",
    // fallocate is refused, so allocating without writing cannot pass the write budget.
    "--seccomp",
    String(SECCOMP_FD),
    ...dataBinds(options.dataRoot, options.hidden, options.privilegeDrop?.staging ?? null, options.session),
    "--chdir",
    SANDBOX_DATA_ROOT,
    "--",
    ...rlimits,
    ...program,
  ];
}
