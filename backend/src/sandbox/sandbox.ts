import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathUnder } from "../lib/path-under.js";
import { ATTACHMENTS_DIR } from "../config/data-root-layout.js";
import { assertSessionId } from "../sessions/session-id.js";
import type { Config } from "../config/config.js";
import { runningAsRoot } from "../lib/running-as-root.js";
import { runProcess, type RunResult } from "./run-process.js";
import { DiskBudget } from "./disk-budget.js";
import { dataMounts, type ProfileOptions, SANDBOX_ENV, sandboxArgv, WRITABLE_DATA_DIRS } from "./sandbox-profile.js";
import { fallocateFilter } from "./seccomp-filter.js";

const SECCOMP_PROGRAM = fallocateFilter();

export type SandboxMode = "bubblewrap" | "degraded";

export interface SandboxStatus {
  mode: SandboxMode;
  /** Why the sandbox is degraded, or what isolates it. */
  detail: string;
  network: boolean;
}

export const DEGRADED_NOTE =
  "[degraded: no OS sandbox (bubblewrap unavailable), so this ran as the workbench's own user with only a timeout, " +
  "an output cap and a command blacklist; see ENV.md]";

export function findOnPath(name: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}


/**
 * Runs tool processes: inside bubblewrap when it is there and works, otherwise degraded (and
 * saying so everywhere: /api/health, every tool result). Which one is decided once, at start.
 */
export class Sandbox {
  private constructor(
    readonly status: SandboxStatus,
    private readonly config: Config,
    private readonly bwrap: Pick<ProfileOptions, "bwrapPath" | "privilegeDrop"> | null,
  ) {}

  static async create(config: Config): Promise<Sandbox> {
    const searchPath = config.sandbox.searchPath;
    const network = config.sandbox.network;
    const degraded = (detail: string) => new Sandbox({ mode: "degraded", detail, network: true }, config, null);
    if (config.sandbox.disabled) return degraded("the sandbox is switched off (SANDBOX=off)");
    const bwrapPath = findOnPath("bwrap", searchPath);
    if (!bwrapPath) return degraded("bubblewrap (bwrap) is not installed or not on PATH: install it with `apt-get install bubblewrap`");
    let privilegeDrop: ProfileOptions["privilegeDrop"] = null;
    if (runningAsRoot) {
      const setprivPath = findOnPath("setpriv", searchPath);
      const unsharePath = findOnPath("unshare", searchPath);
      if (!setprivPath || !unsharePath) return degraded("running as root needs setpriv and unshare (util-linux) to drop to an unprivileged user");
      privilegeDrop = { setprivPath, unsharePath, staging: makeStaging(config.dataRoot), uid: config.sandbox.uid };
    }
    const sandbox = new Sandbox({ mode: "bubblewrap", detail: describe(network, privilegeDrop !== null), network }, config, { bwrapPath, privilegeDrop });
    const probe = await sandbox.run(["/bin/sh", "-c", "echo sandbox-ok"], { timeoutMs: 10_000, maxOutputChars: 2000 });
    if (probe.exitCode !== 0 || !probe.output.includes("sandbox-ok")) {
      sandbox.close();
      return degraded(`bubblewrap is installed but could not start a sandbox here: ${probe.output.trim().slice(0, 300)}`);
    }
    return sandbox;
  }

  /** Removes the staging folder (mounts onto it only ever lived in tools' private namespaces). */
  close(): void {
    const staging = this.bwrap?.privilegeDrop?.staging;
    if (staging) rmSync(staging, { recursive: true, force: true });
  }

  /** Working directory of every tool process: the data root. */
  get cwd(): string {
    return this.config.dataRoot;
  }

  get isolated(): boolean {
    return this.status.mode === "bubblewrap";
  }

  /**
   * argv that runs `program` confined (or as-is when degraded), with the data root as cwd. `session`:
   * the chat session it runs for, whose attachments (and only those) it may read.
   */
  argv(program: string[], session: string | null = null): string[] {
    if (!this.bwrap) return program;
    const { keyFilePath, dataRoot } = this.config;
    // The session's folder exists from its first call on, so attachments it gets later appear inside a running process too.
    if (session) mkdirSync(join(dataRoot, ATTACHMENTS_DIR, assertSessionId(session)), { recursive: true });
    if (this.bwrap.privilegeDrop) ensureMountPoints(this.bwrap.privilegeDrop.staging, dataRoot, session);
    const keyInside = Boolean(pathUnder(dataRoot, keyFilePath));
    return sandboxArgv(
      { ...this.bwrap, dataRoot, network: this.status.network, hidden: keyInside ? [keyFilePath] : [], session },
      program,
      {
        // RLIMIT_NPROC counts per uid system-wide: only meaningful for the dedicated sandbox uid.
        maxProcesses: this.bwrap.privilegeDrop ? this.config.sandbox.maxProcesses : null,
        memoryBytes: this.config.sandbox.memoryBytes,
        maxFileBytes: this.config.sandbox.maxWriteBytes,
        tmpBytes: this.config.sandbox.tmpBytes,
      },
    );
  }

  /** The environment a tool process starts with: never the workbench's own (it holds keys). */
  env(): Record<string, string> {
    return { ...SANDBOX_ENV };
  }

  /** What a sandboxed process reads on SECCOMP_FD at start: the seccomp program (nothing when degraded). */
  get seccomp(): Buffer | null {
    return this.bwrap ? SECCOMP_PROGRAM : null;
  }

  /** The folders whose allocated blocks count against a call's write budget: the ones tools can write. */
  get writableFolders(): string[] {
    return WRITABLE_DATA_DIRS.map((name) => join(this.config.dataRoot, name));
  }

  /** A block budget over the writable folders, for a call that may leave `maxBytes` on disk. */
  diskBudget(maxBytes: number): DiskBudget {
    return new DiskBudget(this.config.dataRoot, this.writableFolders, maxBytes);
  }

  run(program: string[], limits: { timeoutMs: number; maxOutputChars: number; signal?: AbortSignal; session?: string }): Promise<RunResult> {
    const { session, ...processLimits } = limits;
    return runProcess({
      argv: this.argv(program, session ?? null),
      cwd: this.config.dataRoot,
      env: this.env(),
      maxWriteBytes: this.config.sandbox.maxWriteBytes,
      disk: { dataRoot: this.config.dataRoot, folders: this.writableFolders },
      seccomp: this.seccomp,
      ...processLimits,
    });
  }
}

/**
 * An empty, world-traversable folder with one mount point per data folder; mounts onto it only
 * ever happen inside a tool's private mount namespace. Removed when the process exits.
 */
function makeStaging(dataRoot: string): string {
  const staging = mkdtempSync(join(tmpdir(), "moc-sandbox-"));
  chmodSync(staging, 0o755);
  ensureMountPoints(staging, dataRoot, null);
  return staging;
}

/** Data files and folders can appear after start (the snapshot at the first session): give each a mount point. */
function ensureMountPoints(staging: string, dataRoot: string, session: string | null): void {
  for (const mount of dataMounts(dataRoot, session)) {
    const point = join(staging, mount.name);
    if (existsSync(point)) continue;
    if (mount.file) writeFileSync(point, "");
    else mkdirSync(point, { recursive: true });
  }
}

function describe(network: boolean, droppedToNobody: boolean): string {
  return [
    "bubblewrap",
    droppedToNobody ? "as an unprivileged user" : "in a user namespace",
    "data folders writable, system read-only, no secrets",
    network ? "network allowed (SANDBOX_NETWORK=on)" : "no network",
  ].join(", ");
}
