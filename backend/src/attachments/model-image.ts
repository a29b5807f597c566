/**
 * An uploaded image made into what the model is sent: first frame, turned upright, at most
 * MAX_IMAGE_SIDE on its longest side, encoded again without metadata. A decode costs memory by what
 * the header declares, not by the file's size (a 43-byte GIF can declare a 10,000 × 10,000 screen,
 * 400 MB decoded), so the header is read first and the decode refused past a budget per format, and
 * only DECODES_AT_ONCE decodes run at a time: the memory all of them may use is bounded.
 */
import { UserError } from "../lib/user-error.js";

/** Longest side of an image as the model gets it (the bound OpenAI and Anthropic scale to). */
export const MAX_IMAGE_SIDE = 2048;
/**
 * Pixels a decode may hold. JPEG is decoded already shrunk (libjpeg's scaled decode: an eighth of each
 * side at most), so a large photo costs little; every other format is decoded whole, at four bytes a
 * pixel: 24 million pixels is ~96 MB (a 6,000 × 4,000 screenshot).
 */
const PIXEL_BUDGET: Record<string, number> = { jpeg: 100_000_000 };
const DEFAULT_PIXEL_BUDGET = 24_000_000;
/** Decodes at once, across all uploads: with the budget above, at most ~200 MB. */
const DECODES_AT_ONCE = 2;

let running = 0;
const waiting: Array<() => void> = [];

async function inDecodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= DECODES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const million = (n: number) => `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)} million`;

export async function modelImage(name: string, bytes: Uint8Array): Promise<{ data: Buffer; type: string }> {
  const { default: sharp } = await import("sharp");
  // Nothing is kept between decodes (libvips's operation cache would hold the last images' memory).
  sharp.cache(false);
  const unreadable = (err: unknown) => new UserError("unprocessable", `${name} is not an image that can be read (${(err as Error).message.split("\n")[0].slice(0, 200)}).`);
  // The header alone: what the decode would cost, and whether a transparent image must stay PNG.
  let header: { width?: number; height?: number; format?: string; hasAlpha?: boolean };
  try {
    header = await sharp(bytes, { failOn: "truncated" }).metadata();
  } catch (err) {
    throw unreadable(err);
  }
  const pixels = (header.width ?? 0) * (header.height ?? 0);
  const budget = PIXEL_BUDGET[header.format ?? ""] ?? DEFAULT_PIXEL_BUDGET;
  if (pixels > budget) {
    throw new UserError("too_large", `${name} declares ${header.width} × ${header.height} pixels (${million(pixels)}); a ${header.format ?? "image"} attachment may have at most ${million(budget)}. Scale it down first.`);
  }
  return inDecodeSlot(async () => {
    try {
      const image = sharp(bytes, { failOn: "truncated", limitInputPixels: budget }).rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true });
      return header.hasAlpha ? { data: await image.png().toBuffer(), type: "image/png" } : { data: await image.jpeg({ quality: 85 }).toBuffer(), type: "image/jpeg" };
    } catch (err) {
      throw unreadable(err);
    }
  });
}
