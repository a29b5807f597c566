import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

export const defaultsLanguageSchema = z.enum(["en", "zh"]);
export type DefaultsLanguage = z.infer<typeof defaultsLanguageSchema>;

export const defaultsLanguageReplySchema = z
  .object({
    /** The language the default files (workspace files, MEMORY.md, skills, roles) were given in. */
    language: defaultsLanguageSchema,
    /** Who chose it: WORKBENCH_LANGUAGE, the first browser on a new data root, or nobody (English). */
    chosen_by: z.enum(["environment", "browser", "default"]),
    /** A new data root whose first browser has not said its language yet: it may still choose. */
    pending: z.boolean(),
    /** The default files put in the chosen language (those still as shipped); in a reply to the choice. */
    replaced: z.array(z.string()).optional(),
  })
  .meta({ id: "DefaultsLanguageReply" });
export type DefaultsLanguageReply = z.infer<typeof defaultsLanguageReplySchema>;

export const defaultsLanguageApi = {
  read: operation({
    method: "GET",
    path: "/api/defaults-language",
    summary: "The language the default files were given in, and whether a new data root's first browser may still choose it",
    responses: { 200: defaultsLanguageReplySchema },
  }),
  choose: operation({
    method: "POST",
    path: "/api/defaults-language",
    summary: "The first browser's language for a new data root: the default files still as shipped are put in it, once",
    body: z.object({ language: defaultsLanguageSchema }).strict(),
    responses: { 200: defaultsLanguageReplySchema, ...errorReplies(400, 409) },
  }),
};
