/**
 * The server's log written through the secret scrubber: pino hands each finished line (JSON) to this
 * stream, which removes every secret before the line reaches the terminal or a pipe. A line is only
 * text here, so everything in it is covered: messages, error messages and stacks, request fields.
 */
import pretty from "pino-pretty";
import type { SecretScrubber } from "./secret-scrubber.js";

export interface LogOptions {
  level: string;
  /** Readable lines for a person at a terminal; otherwise one JSON object per line. */
  pretty?: boolean;
}

export function scrubbedLogger(options: LogOptions, secrets: SecretScrubber) {
  const target: { write(line: string): unknown } = options.pretty ? pretty({ translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }) : process.stdout;
  return { level: options.level, stream: { write: (line: string) => target.write(secrets.scrub(line)) } };
}
