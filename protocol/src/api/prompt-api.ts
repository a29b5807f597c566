import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

export const promptSectionSchema = z.object({
  name: z.string(),
  /** Data-root-relative path of the source file. */
  path: z.string(),
  missing: z.boolean(),
  /** Why the file was refused (e.g. "symlink refused", "not a regular file"); it was not read. */
  problem: z.string().optional(),
  truncated: z.boolean(),
  raw_chars: z.number().int(),
  injected_chars: z.number().int(),
  /** Rough token count of the injected text (characters / 4). */
  token_estimate: z.number().int(),
  /** The section exactly as injected (cut and annotated where truncated). */
  text: z.string(),
});
export type PromptSection = z.infer<typeof promptSectionSchema>;

export const promptReplySchema = z
  .object({
    /** Session whose last turn used this prompt, or null for a preview assembled now. */
    session_id: z.string().nullable(),
    assembled_at: z.string(),
    total_chars: z.number().int(),
    budget_chars: z.number().int(),
    sections: z.array(promptSectionSchema),
    text: z.string(),
    /** The session's MCP tool definitions as the model is sent them, each with its size (fixed when the session started). */
    mcp_tools: z.array(z.object({ name: z.string(), server: z.string(), chars: z.number().int(), definition: z.unknown() })).optional(),
  })
  .meta({ id: "PromptReply" });
export type PromptReply = z.infer<typeof promptReplySchema>;

export const promptApi = {
  read: operation({
    method: "GET",
    path: "/api/prompt",
    summary: "The system prompt a session's last turn was sent, or a preview assembled from the files now",
    querystring: z.object({ session_id: z.string().max(200).optional() }),
    responses: { 200: promptReplySchema, ...errorReplies(400) },
  }),
};
