/**
 * Text files as people save them: UTF-8 with or without a BOM, UTF-16 (Windows' "Unicode", with a
 * BOM, or without one), and the legacy 8-bit code pages (Latin-1 / Windows-1252 and their kin). The
 * BOM decides when there is one; valid UTF-8 is UTF-8; otherwise chardet (the maintained port of
 * ICU's detector) names the encoding and iconv-lite decodes it (Node 20's TextDecoder decodes
 * "windows-1252" as plain Latin-1, losing its curly quotes and dashes).
 */
import chardet from "chardet";
import iconv from "iconv-lite";

/** Bytes looked at to tell the encoding (the detector's own default sample size). */
const SAMPLE = 64 * 1024;

/** UTF-16 without a BOM: text in the Latin range has a zero byte beside nearly every character. */
function utf16WithoutBom(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length, SAMPLE) & ~1;
  if (n < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) zeroEven++;
    if (bytes[i + 1] === 0) zeroOdd++;
  }
  const pairs = n / 2;
  if (zeroOdd > pairs * 0.3 && zeroEven < pairs * 0.05) return "utf-16le";
  if (zeroEven > pairs * 0.3 && zeroOdd < pairs * 0.05) return "utf-16be";
  return null;
}

/** The encoding these bytes are in, as an iconv-lite name. */
export function detectEncoding(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return "utf-8";
  } catch {
    // not UTF-8: told below
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return utf16;
  const detected = chardet.detect(bytes.subarray(0, SAMPLE))?.toLowerCase() ?? "windows-1252";
  // Latin-1 as text files hold it is Windows-1252: bytes 0x80-0x9f are its curly quotes and dashes,
  // never the C1 control characters ISO-8859-1 puts there (and Node's decoder does not merge the two).
  const named = detected === "iso-8859-1" ? "windows-1252" : detected;
  return iconv.encodingExists(named) ? named : "windows-1252";
}

/** The text of a text file, whatever its encoding (a BOM is dropped). */
export function decodeText(bytes: Uint8Array): string {
  const encoding = detectEncoding(bytes);
  if (encoding === "utf-8" || encoding.startsWith("utf-16")) return new TextDecoder(encoding).decode(bytes);
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
}
