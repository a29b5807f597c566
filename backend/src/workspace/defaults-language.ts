/**
 * The language of a data root's default files. WORKBENCH_LANGUAGE chooses it before the first
 * start; without it, a new data root gets English and its first browser may say its own language
 * once (a person opening a Chinese UI on a fresh clone gets Chinese files): the default files still
 * exactly as shipped in English are then put in that language. A file the user changed, or deleted,
 * stays as it is. The choice is open while the server that seeded the new data root runs, until a
 * browser makes it.
 */
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { DefaultsLanguage, DefaultsLanguageReply } from "@mini-openclaw/protocol";
import { defaultsDir, defaultsZhDir } from "../config/project-paths.js";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { walkFiles } from "./seed-data-root.js";

/** Larger than any default file: a bigger one is not the shipped one. */
const DEFAULT_FILE_MAX_BYTES = 256 * 1024;

/** Who chose, as the refusal says it. */
const CHOSEN_BY: Record<DefaultsLanguageReply["chosen_by"], string> = { environment: "WORKBENCH_LANGUAGE", browser: "the first browser", default: "default" };

export class DefaultsLanguageChoice {
  private language: DefaultsLanguage;
  private chosenBy: DefaultsLanguageReply["chosen_by"];
  private pending: boolean;
  private choosing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: {
      dataRoot: string;
      /** WORKBENCH_LANGUAGE's, or null. */
      fromEnvironment: DefaultsLanguage | null;
      /** The seed found no workspace folder: the data root is new. */
      freshRoot: boolean;
      /** A file was put in the chosen language: the user's choice, as a save of theirs (the heartbeat's checklist). */
      onWritten: (path: string, content: string) => Promise<void>;
    },
  ) {
    this.language = options.fromEnvironment ?? "en";
    this.chosenBy = options.fromEnvironment ? "environment" : "default";
    this.pending = options.fromEnvironment === null && options.freshRoot;
  }

  get state(): DefaultsLanguageReply {
    return { language: this.language, chosen_by: this.chosenBy, pending: this.pending };
  }

  /** The first browser's language; a second choice is a conflict (the files may be the user's by then). */
  choose(language: DefaultsLanguage): Promise<DefaultsLanguageReply> {
    const run = this.choosing.then(async () => {
      if (!this.pending) throw new UserError("conflict", `The default files' language is chosen already (${this.language}, by ${CHOSEN_BY[this.chosenBy]}); edit the files themselves to change them.`);
      this.pending = false;
      this.chosenBy = "browser";
      this.language = language;
      const replaced = language === "zh" ? await this.translateUntouched() : [];
      return { ...this.state, replaced };
    });
    this.choosing = run.catch(() => {});
    return run;
  }

  /** Each default file with a Chinese text whose data-root copy is still the English one as shipped. */
  private async translateUntouched(): Promise<string[]> {
    const replaced: string[] = [];
    for await (const source of walkFiles(defaultsZhDir)) {
      const rel = relative(defaultsZhDir, source);
      const english = await readFile(join(defaultsDir, rel), "utf8").catch(() => null);
      // Read as every data-root file is: no link followed, regular files only, capped.
      const current = await readConfinedTextIfPresent(this.options.dataRoot, rel, DEFAULT_FILE_MAX_BYTES).catch(() => null);
      if (english === null || current !== english) continue;
      const chinese = await readFile(source, "utf8");
      await writeConfinedAtomic(this.options.dataRoot, rel, chinese);
      await this.options.onWritten(rel, chinese);
      replaced.push(rel);
    }
    return replaced;
  }
}
