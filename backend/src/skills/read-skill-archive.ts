import { NAME_PATTERN, readFrontmatter } from "../lib/frontmatter.js";
import { unzipCapped } from "../lib/unzip-capped.js";
import { UserError } from "../lib/user-error.js";
import { MAX_PATH_CHARS } from "@mini-openclaw/protocol";
import { relativeSegments } from "../paths/relative-path.js";

/**
 * A skill archive as the ecosystem ships one (a `.zip`, or Anthropic's `.skill`, which is a zip):
 * read in memory under limits, every path checked, nothing written. install-skills.ts writes it.
 */
export const ARCHIVE_LIMITS = {
  /** Compressed size: the route's body limit. */
  archiveBytes: 20 * 1024 * 1024,
  /** Everything unpacked together; a zip bomb stops here, counted on the bytes actually inflated. */
  unpackedBytes: 64 * 1024 * 1024,
  files: 2000,
  depth: 12,
};

/** Packaging leftovers, never part of a skill. */
const JUNK = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db)(\/|$)/;

export interface ArchiveFile {
  /** Relative to the skill's folder, e.g. `scripts/run.py`. */
  path: string;
  data: Uint8Array;
}

export interface ArchiveSkill {
  /** The folder it goes into under skills/. */
  folder: string;
  files: ArchiveFile[];
}

/** An entry's path as a clean relative path, or the reason it is refused (the whole archive is then refused). */
function cleanPath(name: string): string | { refused: string } {
  // Archives made on Windows separate folders with backslashes.
  const read = relativeSegments(name.replaceAll("\\", "/"));
  if ("refused" in read) {
    const { refused } = read;
    if (refused.kind === "absolute") return { refused: "an absolute path" };
    if (refused.kind === "parent") return { refused: "'..' in its path" };
    if (refused.kind === "bad_name") return { refused: `a name that ${refused.problem}` };
    if (refused.kind === "too_long") return { refused: `a path over ${MAX_PATH_CHARS} characters` };
    if (refused.kind === "nul") return { refused: "a NUL byte in its path" };
    return ""; // `./` and the like: the archive's own top folder
  }
  const parts = read.segments;
  if (parts.length > ARCHIVE_LIMITS.depth) return { refused: `more than ${ARCHIVE_LIMITS.depth} folders deep` };
  return parts.join("/");
}

/** Unpacks every file entry, counting real inflated bytes (declared sizes can lie). */
async function unpack(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const paths = new Map<string, string>();
  const unpacked = await unzipCapped(
    bytes,
    (name) => {
      const path = cleanPath(name);
      if (typeof path !== "string") return { refuse: path.refused };
      if (JUNK.test(path)) return "skip";
      paths.set(name, path);
      return "keep";
    },
    { totalBytes: ARCHIVE_LIMITS.unpackedBytes, files: ARCHIVE_LIMITS.files },
  );
  if (!unpacked.ok) {
    const { problem } = unpacked;
    switch (problem.kind) {
      case "refused":
        throw new UserError("unprocessable", `The archive was refused: the entry "${problem.entry.slice(0, 200)}" has ${problem.message}. Nothing was installed.`);
      case "too-large":
      case "too-many":
        throw new UserError("too_large", `The archive was refused: ${problem.message}. Nothing was installed.`);
      case "method":
        throw new UserError("unprocessable", `${problem.message}; zip it again with deflate.`);
      case "damaged":
        throw new UserError("unprocessable", `The archive was refused: ${problem.message}. Nothing was installed.`);
    }
  }
  return new Map([...unpacked.files].map(([name, data]) => [paths.get(name)!, data]));
}

/** The folder name for a SKILL.md at the archive's top: its frontmatter name, else the archive's file name. */
function topLevelFolder(skillMd: Uint8Array, archiveName: string): string {
  const front = readFrontmatter(Buffer.from(skillMd).toString("utf8"), "SKILL.md", "name and description");
  const name = front.ok && typeof front.data.name === "string" ? front.data.name.trim() : "";
  if (NAME_PATTERN.test(name)) return name;
  const stem = archiveName.replace(/^.*[\\/]/, "").replace(/\.(zip|skill)$/i, "").replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  if (NAME_PATTERN.test(stem)) return stem;
  throw new UserError("unprocessable", "The archive's SKILL.md has no usable name and the archive's file name cannot stand in for one.");
}

/**
 * The skills in an archive: every folder holding a SKILL.md (the outermost, when skills nest), at
 * the top (`SKILL.md`), in a top folder (`pdf/SKILL.md`, Anthropic's `.skill`), or deeper (a
 * repository download, `skills-main/skills/pdf/SKILL.md`). Each keeps the files under its folder.
 */
export async function readSkillArchive(bytes: Uint8Array, archiveName: string): Promise<ArchiveSkill[]> {
  if (bytes.length === 0) throw new UserError("invalid_request", "The archive is empty.");
  const files = await unpack(bytes);
  const roots = [...files.keys()]
    .filter((path) => path === "SKILL.md" || path.endsWith("/SKILL.md"))
    .map((path) => path.slice(0, -"SKILL.md".length))
    .sort((a, b) => a.length - b.length);
  const outermost = roots.filter((root, i) => !roots.slice(0, i).some((outer) => root.startsWith(outer)));
  if (outermost.length === 0) throw new UserError("unprocessable", "The archive holds no SKILL.md, so it is not a skill. Nothing was installed.");

  const skills = outermost.map((root): ArchiveSkill => {
    const folder = root === "" ? topLevelFolder(files.get("SKILL.md")!, archiveName) : root.split("/").at(-2)!;
    if (!NAME_PATTERN.test(folder)) throw new UserError("unprocessable", `The skill folder "${folder.slice(0, 100)}" in the archive is not a usable name (letters, digits, '_', '-', '.').`);
    return {
      folder,
      files: [...files].filter(([path]) => path.startsWith(root)).map(([path, data]) => ({ path: path.slice(root.length), data })),
    };
  });
  skills.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  const folders = skills.map((s) => s.folder);
  const twice = folders.find((f, i) => folders.indexOf(f) !== i);
  if (twice) throw new UserError("unprocessable", `The archive holds two skills for the folder "${twice}". Nothing was installed.`);
  return skills;
}
