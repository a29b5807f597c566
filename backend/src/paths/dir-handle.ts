/**
 * Writing into folders another process can change at any moment (the sandbox writes the data
 * folders), without ever re-resolving a path: every step goes through an open directory descriptor.
 * Node 20 has no openat/mkdirat/renameat, so a name is reached as `/proc/self/fd/<fd>/<name>`: the
 * kernel starts that lookup at the very folder the descriptor holds, wherever it has been moved, and
 * `O_NOFOLLOW | O_DIRECTORY` refuses a link swapped in for a folder. A folder swapped for a link
 * between two steps is therefore never followed: the write lands inside the data root, or fails.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, link, lstat, mkdir, open, readdir, readlink, realpath, rename, rm, rmdir, unlink } from "node:fs/promises";
import { runningAsRoot } from "../lib/running-as-root.js";
import { UserError } from "../lib/user-error.js";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** A name inside one folder: never a path, `.` or `..`. */
function checkName(name: string): string {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
    throw new UserError("invalid_request", `"${name.slice(0, 80)}" is not a file or folder name.`);
  }
  return name;
}

/** Errors meaning a folder on the way was a link, a file, or went away. */
const SWAPPED = new Set(["ENOTDIR", "ELOOP", "ENOENT"]);

export class DirHandle {
  private constructor(
    private readonly handle: FileHandle,
    /** Where it was when opened (for messages only: it may have moved since). */
    readonly shownAs: string,
  ) {}

  /** Opens the data root itself: its real path, confirmed by the descriptor. */
  static async openRoot(root: string): Promise<DirHandle> {
    const real = await realpath(root);
    const handle = await open(real, DIR_FLAGS);
    if ((await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null)) !== real) {
      await handle.close();
      throw new UserError("conflict", "The data root changed while it was opened; try again.");
    }
    return new DirHandle(handle, ".");
  }

  /** The path by which the kernel resolves `name` inside this very folder. */
  at(name: string): string {
    return `/proc/self/fd/${this.handle.fd}/${checkName(name)}`;
  }

  /** A folder inside this one, never through a link; made (with this folder's owner, as root) when `create` and missing. */
  async dir(name: string, { create = false }: { create?: boolean } = {}): Promise<DirHandle> {
    const path = this.at(name);
    const shown = this.shownAs === "." ? name : `${this.shownAs}/${name}`;
    let made = false;
    for (;;) {
      try {
        const handle = await open(path, DIR_FLAGS);
        const dir = new DirHandle(handle, shown);
        if (made) await dir.takeOwnerOf(this).catch(async (err) => {
          await dir.close();
          throw err;
        });
        return dir;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT" && create && !made) {
          made = await mkdir(path).then(
            () => true,
            (e: NodeJS.ErrnoException) => {
              if (e.code === "EEXIST") return false;
              throw e;
            },
          );
          continue;
        }
        if (code && SWAPPED.has(code)) {
          const link = await lstat(path).then((info) => info.isSymbolicLink(), () => false);
          if (link) throw new UserError("refused", `${shown} is a symbolic link: the path leaves the data root through it; refused.`);
          throw new UserError("conflict", `${shown} is not a folder here (it is missing or a file; it may have changed during the write).`);
        }
        throw err;
      }
    }
  }

  /** Walks `relPath` (folders separated by `/`) from here, one descriptor at a time; "" is this folder again. */
  async dirPath(relPath: string, options: { create?: boolean } = {}): Promise<DirHandle> {
    const parts = relPath.split("/").filter(Boolean);
    if (parts.length === 0) return new DirHandle(await open(`/proc/self/fd/${this.handle.fd}`, constants.O_RDONLY | constants.O_DIRECTORY), this.shownAs);
    let current = await this.dir(parts[0], options);
    for (const part of parts.slice(1)) {
      const previous = current;
      current = await previous.dir(part, options).finally(() => previous.close());
    }
    return current;
  }

  /**
   * Writes `name` in this folder atomically: a new temp file (never through a link), synced, then
   * renamed over the name within this same folder. The old content stays if anything fails.
   */
  async writeFileAtomic(name: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    const temp = await this.writeTemp(name, content, mode);
    try {
      await rename(this.at(temp), this.at(name));
    } catch (err) {
      await rm(this.at(temp), { force: true });
      if ((err as NodeJS.ErrnoException).code === "EISDIR") throw new UserError("invalid_request", `${this.shownAs}/${name} is a folder, not a file.`);
      throw err;
    }
  }

  /**
   * Makes `name` in this folder with this content, never over anything there (a file, a folder, a
   * link): written whole to a temp file, then linked in under its name (a link fails if the name
   * exists, where a rename would replace it). 409 when the name is taken.
   */
  async createFile(name: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    const temp = await this.writeTemp(name, content, mode);
    try {
      await link(this.at(temp), this.at(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new UserError("conflict", `${this.shownAs}/${name} exists already; it was left as it is.`);
      throw err;
    } finally {
      await rm(this.at(temp), { force: true });
    }
  }

  /** A new temp file beside `name` (never through a link) with the content, synced; its name. */
  private async writeTemp(name: string, content: string | Uint8Array, mode: number): Promise<string> {
    checkName(name);
    const temp = `.${name.slice(0, 200)}.${randomBytes(6).toString("hex")}.tmp`;
    const file = await open(this.at(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      // The mode asked for, exactly (the process's umask would take bits away).
      await file.chmod(mode);
      await this.giveOwner(file);
      await file.writeFile(content, typeof content === "string" ? "utf8" : undefined);
      await file.sync();
    } catch (err) {
      await file.close().catch(() => {});
      await rm(this.at(temp), { force: true });
      throw err;
    }
    await file.close();
    return temp;
  }

  /** Moves `name` from this folder to `toName` in `to`, both by descriptor; never replaces a folder that has content. */
  async moveTo(name: string, to: DirHandle, toName: string): Promise<void> {
    await rename(this.at(name), to.at(toName));
  }

  /**
   * Removes `name` from this folder: a folder with everything in it, each level opened by descriptor
   * (a recursive rm by path would follow a folder swapped for a link between its look and its
   * delete, and delete outside); a link or a file is unlinked, never followed.
   */
  async remove(name: string): Promise<void> {
    let dir: DirHandle;
    try {
      dir = await this.dir(name);
    } catch {
      await unlink(this.at(name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT" && err.code !== "EISDIR") throw err;
      });
      return;
    }
    try {
      for (const entry of await readdir(`/proc/self/fd/${dir.handle.fd}`)) await dir.remove(entry);
    } finally {
      await dir.close();
    }
    await rmdir(this.at(name)).catch((err: NodeJS.ErrnoException) => {
      // Swapped or refilled meanwhile: what is there now stays (it is inside this folder).
      if (!["ENOENT", "ENOTDIR", "ENOTEMPTY", "EEXIST"].includes(err.code ?? "")) throw err;
    });
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /**
   * As root, what the server makes takes the owner of the folder it is made in, so folders handed to
   * the sandbox user stay writable for it. Only ever on descriptors (fchown).
   */
  private async giveOwner(target: FileHandle): Promise<void> {
    if (!runningAsRoot) return;
    const owner = await this.handle.stat();
    if (owner.uid === 0 && owner.gid === 0) return;
    await target.chown(owner.uid, owner.gid);
  }

  private async takeOwnerOf(parent: DirHandle): Promise<void> {
    await parent.giveOwner(this.handle);
  }
}

/**
 * Runs `fn` with a folder of the data root open by descriptor (the root and every folder on the way
 * never through a link; made when `create`), and closes both after it, whatever happens.
 */
export async function inConfinedFolder<T>(dataRoot: string, folder: string, options: { create?: boolean }, fn: (dir: DirHandle) => Promise<T>): Promise<T> {
  const root = await DirHandle.openRoot(dataRoot);
  try {
    const dir = await root.dirPath(folder, options);
    try {
      return await fn(dir);
    } finally {
      await dir.close();
    }
  } finally {
    await root.close();
  }
}
