/**
 * What an uploaded file is, from its content (magic bytes, then whether it reads as text), never
 * from its name alone: an image the model can see, text to put inline, or a document whose text the
 * knowledge loaders extract. Anything else is refused with its type (415).
 */
import { fileTypeFromBuffer } from "file-type";
import type { Attachment } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { decodeText } from "../knowledge/text-encoding.js";

const IMAGES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
/** Documents the knowledge loaders read, by media type: the extension they read them by. */
const DOCUMENTS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/epub+zip": "epub",
};
/** Bytes looked at to tell text from binary. */
const SAMPLE = 64 * 1024;

export interface FoundKind {
  kind: Attachment["kind"];
  type: string;
  /** The extension the knowledge loaders read a document by (`html` for HTML). */
  ext: string | null;
}

/** Control characters (other than tabs, line ends and form feeds) or replacement characters: not text. */
function readsAsText(bytes: Uint8Array): boolean {
  const text = decodeText(bytes.subarray(0, SAMPLE));
  if (text.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 9 && code !== 10 && code !== 12 && code !== 13) || code === 0xfffd || code === 0x7f) odd++;
  }
  return odd / text.length < 0.01;
}

export async function attachmentKind(name: string, bytes: Uint8Array): Promise<FoundKind> {
  if (bytes.length === 0) throw new UserError("invalid_request", `${name} is empty.`);
  const found = await fileTypeFromBuffer(bytes);
  if (found && IMAGES.has(found.mime)) return { kind: "image", type: found.mime, ext: found.ext };
  if (found && DOCUMENTS[found.mime]) return { kind: "document", type: found.mime, ext: DOCUMENTS[found.mime] };
  if (found) throw new UserError("unsupported_type", `${name} is ${found.mime}: attach an image (PNG, JPEG, WebP, GIF), a text or code file, or a PDF, Word, PowerPoint, Excel, EPUB or HTML document.`);
  if (!readsAsText(bytes)) throw new UserError("unsupported_type", `${name} is binary data of no kind the workbench reads (application/octet-stream).`);
  if (/\.html?$/i.test(name)) return { kind: "document", type: "text/html", ext: "html" };
  return { kind: "text", type: "text/plain", ext: null };
}
