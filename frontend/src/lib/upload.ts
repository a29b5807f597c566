/**
 * Sends a file's bytes with upload progress (fetch has none): the Knowledge view's add. Failures
 * are ApiErrors with the server's words, as `api` gives them.
 */
import { api, type KnowledgeUploadReply } from "@mini-openclaw/protocol";
import { ApiError, urlOf } from "./api-client";

export function uploadKnowledgeFile(file: Blob, filename: string, onProgress: (fraction: number) => void): Promise<KnowledgeUploadReply> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const upload = api.knowledge.upload;
    xhr.open(upload.method, urlOf(upload, undefined, { filename }));
    xhr.setRequestHeader("content-type", upload.rawBody.contentTypes[0]);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(0, "The workbench server is not reachable. Is it still running?"));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status === 201) resolve(body as KnowledgeUploadReply);
      else reject(new ApiError(xhr.status, (body as { error?: string } | null)?.error ?? `${xhr.status} ${xhr.statusText}`, body));
    };
    xhr.send(file);
  });
}
