/**
 * The hosts a person let each task's unattended runs fetch from, in `storage/tasks/fetch-hosts.json`
 * (the workbench's own: no tool writes there). A run's fetch_url to any other host waits for a person,
 * so a checklist or prompt the agent rewrote cannot quietly send data somewhere new.
 */
import { z } from "zod";
import { STORAGE_DIR } from "../config/data-root-layout.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";

const FILE = `${STORAGE_DIR}/tasks/fetch-hosts.json`;
const MAX_BYTES = 1024 * 1024;
/** Hosts kept per task (the oldest go first). */
const HOSTS_PER_TASK = 200;
const fileSchema = z.record(z.string(), z.array(z.string().max(253)).max(HOSTS_PER_TASK));

export class TaskHosts {
  private hosts: Record<string, string[]> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly dataRoot: string) {}

  async load(): Promise<void> {
    const text = await readConfinedTextIfPresent(this.dataRoot, FILE, MAX_BYTES).catch(() => null);
    let json: unknown = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      // a torn file: no host is known, each asks again
    }
    const parsed = fileSchema.safeParse(json);
    this.hosts = parsed.success ? parsed.data : {};
  }

  /** What a run of `taskId` asks: has a person let it reach this host; and the way to remember one. */
  of(taskId: string): { known(host: string): boolean; remember(host: string): void } {
    return {
      known: (host) => Object.hasOwn(this.hosts, taskId) && this.hosts[taskId].includes(host),
      remember: (host) => {
        if (!host) return;
        const list = (Object.hasOwn(this.hosts, taskId) ? this.hosts[taskId] : []).filter((h) => h !== host);
        this.hosts[taskId] = [...list, host].slice(-HOSTS_PER_TASK);
        this.save();
      },
    };
  }

  forget(taskId: string): void {
    if (!Object.hasOwn(this.hosts, taskId)) return;
    delete this.hosts[taskId];
    this.save();
  }

  /** Writes the hosts as they are now, after any write still under way (a failed write asks again next time). */
  private save(): void {
    const text = JSON.stringify(this.hosts);
    this.writing = this.writing.then(() => writeConfinedAtomic(this.dataRoot, FILE, text)).catch(() => {});
  }
}
