/**
 * File contents by their SHA-256, each stored once (`<store>/blobs/ab/abcd…`), written whole or not
 * at all. The store lives outside every folder the sandbox can see (`.checkpoints/` at the top of the
 * data root, beside APPROVALS.json), so no tool can read, rewrite or delete a before-image.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const hashOf = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** What a file of this size costs on disk, as the store's cap counts it: whole 4 kB blocks, and one at least (its inode). */
export const diskCost = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096)) * 4096;

export class BlobStore {
  private readonly known = new Set<string>();

  constructor(readonly dir: string) {}

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }

  /** Whether the content is known to be stored (by this process). */
  has(hash: string): boolean {
    return this.known.has(hash);
  }

  /** Stores the content under its hash; true when it was not there before (it now takes room). */
  async put(data: Uint8Array, hash = hashOf(data)): Promise<boolean> {
    if (this.known.has(hash)) return false;
    const path = this.pathOf(hash);
    const exists = await stat(path).then(() => true, () => false);
    if (!exists) {
      await mkdir(join(this.dir, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(tmp, data, { mode: 0o600 });
      await rename(tmp, path);
    }
    this.known.add(hash);
    return !exists;
  }

  get(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash));
  }

  /** Every stored hash with its size. */
  async list(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const prefix of await readdir(this.dir).catch(() => [] as string[])) {
      for (const name of await readdir(join(this.dir, prefix)).catch(() => [] as string[])) {
        if (name.endsWith(".tmp")) continue;
        const info = await stat(join(this.dir, prefix, name)).catch(() => null);
        if (info) out.set(name, info.size);
      }
    }
    return out;
  }

  async remove(hash: string): Promise<void> {
    this.known.delete(hash);
    await rm(this.pathOf(hash), { force: true });
  }
}
