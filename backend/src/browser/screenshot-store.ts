import { createHash } from "node:crypto";
import { SCREENSHOTS_DIR } from "../config/data-root-layout.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";

/** A screenshot's id: the hash of its bytes, so the same picture is stored once however often it is taken. */
const ID = /^[0-9a-f]{32}$/;
const MAX_BYTES = 8 * 1024 * 1024;

/** The browser's screenshots under storage/: written once each, read back by id for the cards and exports. */
export class ScreenshotStore {
  constructor(private readonly dataRoot: string) {}

  async save(jpeg: Buffer): Promise<string> {
    const id = createHash("sha256").update(jpeg).digest("hex").slice(0, 32);
    await writeConfinedAtomic(this.dataRoot, `${SCREENSHOTS_DIR}/${id}.jpg`, jpeg);
    return id;
  }

  /** A screenshot from an export, stored again: refused unless it is a JPEG whose bytes are what its id names. */
  async imported(id: string, jpeg: Buffer): Promise<void> {
    if (jpeg.length > MAX_BYTES || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error(`screenshot ${id} is not a JPEG of at most ${MAX_BYTES / (1024 * 1024)} MB`);
    if ((await this.save(jpeg)) !== id) throw new Error(`screenshot ${id}'s bytes are not the ones its id names`);
  }

  /** The JPEG's bytes; null for an id that is not one or a picture that is gone. */
  async read(id: string): Promise<Buffer | null> {
    if (!ID.test(id)) return null;
    try {
      return (await readConfinedFile(this.dataRoot, `${SCREENSHOTS_DIR}/${id}.jpg`, { maxBytes: MAX_BYTES })).data;
    } catch (err) {
      if (isUnreadable(err)) return null;
      throw err;
    }
  }
}
