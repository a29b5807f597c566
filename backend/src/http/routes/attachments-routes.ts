import { api, MAX_ATTACHMENT_BYTES } from "@mini-openclaw/protocol";
import { UserError } from "../../lib/user-error.js";
import type { FastifyInstance } from "fastify";
import type { AttachmentStore } from "../../attachments/attachment-store.js";
import { routeOf, typed } from "../api-route.js";

/**
 * Attachments: an upload (the file's bytes as the body) stored and checked for what it is, and an
 * attachment's bytes back for its thumbnail or the Inspector.
 */
export async function attachmentsRoutes(app: FastifyInstance, { attachments }: { attachments: AttachmentStore }) {
  // A file's raw bytes as the body (what a dropped or pasted file's fetch sends); only on this plugin's routes.
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  typed(app).route({
    ...routeOf(api.attachments.upload),
    // One byte over the limit still arrives, so the reply can say the file is too large rather than Fastify's plain 413.
    bodyLimit: MAX_ATTACHMENT_BYTES + 1,
    handler: async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) throw new UserError("unsupported_type", "Send the file's bytes as the body, with Content-Type application/octet-stream.");
      const attachment = await attachments.add(request.query.filename ?? "attachment", request.body);
      request.log.info({ id: attachment.id, kind: attachment.kind, bytes: attachment.size }, "attachment added");
      return reply.code(201).send(attachment);
    },
  });

  typed(app).route({
    ...routeOf(api.attachments.read),
    handler: async (request, reply) => {
      const { data, type, name } = await attachments.bytes(request.params.id);
      // Only an image is shown as what it is: an uploaded HTML page must never run on the workbench's origin.
      const image = type.startsWith("image/");
      return reply
        .header("content-type", image ? type : type === "text/plain" ? "text/plain; charset=utf-8" : "application/octet-stream")
        .header("content-disposition", `${image || type === "text/plain" ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header("x-content-type-options", "nosniff")
        .send(data as never);
    },
  });

  typed(app).route({ ...routeOf(api.attachments.text), handler: async (request) => attachments.text(request.params.id) });
}
