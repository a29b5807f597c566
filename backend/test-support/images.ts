/** Images for tests, made with sharp (the workbench's own image library). */
import sharp from "sharp";

/** A plain PNG of one colour. */
export function solidPng(width: number, height: number, colour = "#2a6"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}
