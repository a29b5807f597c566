/**
 * Files and images attached to a message: uploaded first (an id back), then named by
 * `POST /api/chat` `{ attachments: [id, …] }`. An attachment belongs to the session of the first
 * message that names it; the user's entry keeps it by reference.
 */
import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

/** Bytes of one attachment. */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
/** Attachments on one message. */
export const MAX_ATTACHMENTS = 10;

export const attachmentSchema = z
  .object({
    id: z.string(),
    /** The file's name as it was given (a path is cut to its last part). */
    name: z.string(),
    /** Its media type, found from its content. */
    type: z.string(),
    size: z.number().int(),
    /** How the model gets it: an image part, the text inline, or a document's text (pages marked). */
    kind: z.enum(["image", "text", "document"]),
    sha256: z.string(),
    /** Where tools read it (data-root relative, read-only to them): `attachments/<session>/<name>`, once a message names it. */
    path: z.string().optional(),
  })
  .meta({ id: "Attachment" });
export type Attachment = z.infer<typeof attachmentSchema>;

export const attachmentParams = z.object({ id: z.string().max(100) });

/** An attachment with its bytes, as a session export carries it. */
export const exportedAttachmentSchema = attachmentSchema.extend({ data: z.base64() }).meta({ id: "ExportedAttachment" });
export type ExportedAttachment = z.infer<typeof exportedAttachmentSchema>;

/** `GET /api/attachments/:id/text`: what the model reads of a text file or document (pages and slides marked). */
export const attachmentTextSchema = z.object({ attachment: attachmentSchema, text: z.string() }).meta({ id: "AttachmentText" });
export type AttachmentText = z.infer<typeof attachmentTextSchema>;

export const attachmentsApi = {
  upload: operation({
    method: "POST",
    path: "/api/attachments",
    summary: "Stores a file or image for a message (content-addressed); the id goes in POST /api/chat's attachments",
    querystring: z.object({ filename: z.string().max(255).optional() }),
    rawBody: { contentTypes: ["application/octet-stream"], description: "The file's bytes." },
    responses: { 201: attachmentSchema, ...errorReplies(400, 413, 415, 422) },
  }),
  read: operation({
    method: "GET",
    path: "/api/attachments/:id",
    summary: "An attachment's bytes, with its media type (thumbnails, the Inspector)",
    params: attachmentParams,
    responses: { 200: { contentType: "application/octet-stream", description: "The bytes as uploaded." }, ...errorReplies(400, 404) },
  }),
  text: operation({
    method: "GET",
    path: "/api/attachments/:id/text",
    summary: "The text the model reads of a text file or document (the Inspector shows it); an image has none (400)",
    params: attachmentParams,
    responses: { 200: attachmentTextSchema, ...errorReplies(400, 404) },
  }),
};
