/**
 * The processes a tool call or an MCP server started, seen from the host through /proc: for the
 * per-call write budget (bytes written by the whole tree) and for stopping what was left running.
 * /proc never blocks, so these small synchronous reads are cheap (about 10 µs a file).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";

interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: orders siblings by age. */
  start: number;
  /** Exited, waiting for its parent to reap it: nothing left to stop. */
  zombie: boolean;
}

function readStat(pid: number): ProcessInfo | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), start: Number(fields[19]), zombie: fields[0] === "Z" };
  } catch {
    return null; // gone
  }
}

function allProcesses(): ProcessInfo[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: ProcessInfo[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const info = readStat(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** `root` and every process below it, parents before children. */
export function processTree(root: number): ProcessInfo[] {
  const all = allProcesses();
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const top = all.find((p) => p.pid === root);
  if (!top) return [];
  const out = [top];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i].pid) ?? []));
  return out;
}

/**
 * Bytes the tree under `root` has written (write() calls of any kind, `wchar`). A process's count
 * includes the children it has reaped, so with the live processes' counts this covers the tree.
 */
export function treeWrittenBytes(root: number): number {
  let total = 0;
  for (const p of processTree(root)) {
    try {
      const match = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${p.pid}/io`, "utf8"));
      if (match) total += Number(match[1]);
    } catch {
      // gone, or not ours to read
    }
  }
  return total;
}

/**
 * Memory of the tree under `root`, in bytes: each process's proportional share (Pss, from
 * smaps_rollup), so pages its processes share (a browser's code, its shared memory) count once in all.
 * Read off the event loop: the kernel walks each process's page tables to answer (milliseconds for
 * a browser's gigabyte).
 */
export async function treeMemoryBytes(root: number): Promise<number> {
  const shares = await Promise.all(
    processTree(root).map(async (p) => {
      try {
        const match = /^Pss:\s+(\d+) kB$/m.exec(await readFile(`/proc/${p.pid}/smaps_rollup`, "utf8"));
        return match ? Number(match[1]) * 1024 : 0;
      } catch {
        return 0; // gone
      }
    }),
  );
  return shares.reduce((a, b) => a + b, 0);
}

/**
 * Stops everything under a long-lived program but the program itself (the Python REPL, whose calls
 * must not leave children behind). `wrapped`: `root` is the outer bwrap, its child the namespace's
 * init, and the init's oldest child the program; otherwise `root` is the program. Returns how many
 * processes were stopped.
 */
export async function killStrays(root: number, options: { wrapped: boolean }): Promise<number> {
  let stopped = 0;
  const killed = new Set<number>();
  // A process forking in a loop can add children between a look and the kills: look again.
  for (let round = 0; round < 5; round++) {
    const tree = processTree(root);
    const keep = new Set([root]);
    if (options.wrapped) {
      const init = tree.find((p) => p.ppid === root);
      if (!init) return stopped;
      keep.add(init.pid);
      const program = tree.filter((p) => p.ppid === init.pid).sort((a, b) => a.start - b.start)[0];
      if (program) keep.add(program.pid);
    }
    const strays = tree.filter((p) => !keep.has(p.pid) && !p.zombie);
    if (strays.length === 0) break;
    for (const p of strays) {
      try {
        process.kill(p.pid, "SIGKILL");
        if (!killed.has(p.pid)) stopped++;
        killed.add(p.pid);
      } catch {
        // already gone
      }
    }
  }
  // A killed process lingers for a moment while the kernel tears it down: the call ends once they are gone.
  for (let waited = 0; waited < 1000 && processTree(root).some((p) => killed.has(p.pid) && !p.zombie); waited += 10) await sleep(10);
  return stopped;
}

/**
 * Processes whose environment holds `KEY=value`: what a program started keeps the mark even after it
 * left the program's process group and tree (`setsid`, a daemon's double fork), unless it cleared its
 * environment. Only processes of our own user (or every one, as root) can be read. Read off the event
 * loop (a sweep after every hook's run reads every process's environment: hundreds of files).
 */
export async function processesMarked(key: string, values: readonly string[]): Promise<number[]> {
  const marks = values.map((value) => Buffer.from(`${key}=${value}\0`));
  const inners = marks.map((mark) => Buffer.concat([Buffer.from([0]), mark]));
  let names: string[];
  try {
    names = await readdir("/proc");
  } catch {
    return [];
  }
  const pids = names.filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57);
  const out: number[] = [];
  for (let i = 0; i < pids.length; i += 64) {
    await Promise.all(
      pids.slice(i, i + 64).map(async (name) => {
        try {
          const environ = await readFile(`/proc/${name}/environ`);
          if (marks.some((mark, m) => environ.indexOf(mark) === 0 || environ.indexOf(inners[m]) !== -1)) out.push(Number(name));
        } catch {
          // gone, or not ours to read
        }
      }),
    );
  }
  return out;
}

/**
 * Stops with SIGKILL every process below `root` and every process marked `key=value` (any of `values`),
 * looking again while new ones appear (a process forking in a loop), and waits until they are gone.
 */
export async function killTreeAndMarked(root: number | null, key: string, values: string | readonly string[]): Promise<number> {
  const killed = new Set<number>();
  for (let round = 0; round < 5; round++) {
    const targets = [...(root === null ? [] : processTree(root).filter((p) => !p.zombie).map((p) => p.pid)), ...(await processesMarked(key, typeof values === "string" ? [values] : values))].filter((pid) => pid !== process.pid);
    const fresh = targets.filter((pid) => !killed.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
      killed.add(pid);
    }
  }
  const alive = (pid: number) => {
    const info = readStat(pid);
    return info !== null && !info.zombie;
  };
  for (let waited = 0; waited < 1000 && [...killed].some(alive); waited += 10) await sleep(10);
  return killed.size;
}
