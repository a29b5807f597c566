import { zipSync, type Zippable } from "fflate";
import { i18n } from "@/i18n/language";

/** What a drop onto the Skills pane becomes: one archive for `POST /api/skills/install`. */
export interface DroppedArchive {
  archive: Blob;
  filename: string;
}

const ARCHIVE = /\.(zip|skill)$/i;
/** A dropped folder is read up to this many files (the server's own limit is 2,000). */
const MAX_FOLDER_FILES = 2000;

function readEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries returns the folder in batches: call it until it returns none.
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) return resolve(all);
        all.push(...batch);
        next();
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** A dropped folder, zipped in the browser (the server unpacks archives only, with one set of checks). */
async function zipFolder(root: FileSystemDirectoryEntry): Promise<DroppedArchive> {
  const files: Zippable = {};
  let count = 0;
  const walk = async (dir: FileSystemDirectoryEntry, prefix: string) => {
    for (const entry of await readEntries(dir)) {
      if (entry.isDirectory) await walk(entry as FileSystemDirectoryEntry, `${prefix}${entry.name}/`);
      else if (entry.isFile) {
        if (++count > MAX_FOLDER_FILES) throw new Error(i18n.t("skills.folderTooBig", { count: MAX_FOLDER_FILES }));
        files[`${prefix}${entry.name}`] = new Uint8Array(await (await fileOf(entry as FileSystemFileEntry)).arrayBuffer());
      }
    }
  };
  await walk(root, `${root.name}/`);
  const bytes = zipSync(files, { level: 1 });
  return { archive: new Blob([bytes.buffer as ArrayBuffer], { type: "application/zip" }), filename: `${root.name}.zip` };
}

/** The archives in a drop: `.zip`/`.skill` files as they are, folders zipped. Anything else is named in `refused`. */
export async function archivesFromDrop(data: DataTransfer): Promise<{ archives: DroppedArchive[]; refused: string[] }> {
  const archives: DroppedArchive[] = [];
  const refused: string[] = [];
  // Entries must be taken synchronously, before the first await: the DataTransfer empties after the event.
  const items = [...data.items].filter((item) => item.kind === "file").map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  for (const { entry, file } of items) {
    if (entry?.isDirectory) archives.push(await zipFolder(entry as FileSystemDirectoryEntry));
    else if (file && ARCHIVE.test(file.name)) archives.push({ archive: file, filename: file.name });
    else if (file) refused.push(file.name);
  }
  return { archives, refused };
}
