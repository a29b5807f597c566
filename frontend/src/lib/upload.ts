/**
 * Sends a file's bytes with upload progress (fetch has none): the Knowledge view's add and the
 * composer's attachments. Failures are ApiErrors with the server's words, as `api` gives them.
 */
import { api, type Attachment, type KnowledgeUploadReply } from "@mini-openclaw/protocol";
import { errorFromReply, unreachableError, urlOf } from "./api-client";

type UploadOperation = typeof api.knowledge.upload | typeof api.attachments.upload;

function uploadFile<R>(op: UploadOperation, file: Blob, filename: string, onProgress: (fraction: number) => void): Promise<R> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(op.method, urlOf(op, undefined, { filename }));
    xhr.setRequestHeader("content-type", op.rawBody.contentTypes[0]);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(unreachableError());
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status === 201) resolve(body as R);
      else reject(errorFromReply(xhr.status, xhr.statusText, body));
    };
    xhr.send(file);
  });
}

export const uploadKnowledgeFile = (file: Blob, filename: string, onProgress: (fraction: number) => void) =>
  uploadFile<KnowledgeUploadReply>(api.knowledge.upload, file, filename, onProgress);

export const uploadAttachment = (file: Blob, filename: string, onProgress: (fraction: number) => void) => uploadFile<Attachment>(api.attachments.upload, file, filename, onProgress);
