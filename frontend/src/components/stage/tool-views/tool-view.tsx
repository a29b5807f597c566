import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { Block } from "@/lib/turn-model";

export type ToolBlock = Extract<Block, { kind: "tool" }>;

/**
 * How one tool's card looks: its icon, the one line that says what the call was about, and how its
 * input reads. One file per tool (this folder); `tool-views.ts` maps names to them.
 */
export interface ToolView {
  icon: LucideIcon;
  /** One line: the path, command, URL, code or question the call was about. */
  summary(input: Record<string, unknown>): string;
  /** The input as this tool's users read it; absent: the JSON. */
  Input?: (props: { input: Record<string, unknown> }) => ReactNode;
  /** What came back, as this tool's users read it (from the call's details), or null for the output as text. */
  Output?: (props: { block: ToolBlock }) => ReactNode;
  /** Whether the finished card opens by itself; absent: when its output is short. */
  openWhenDone?(block: ToolBlock): boolean;
}

/** The first line of a string field of the input, or "". */
export const firstLine = (value: unknown): string => (typeof value === "string" ? value.split("\n")[0] : "");

/** Input text set as code, the way every view shows a command or a program. */
export function CodeInput({ text, prompt }: { text: string; prompt?: string }) {
  return (
    <pre data-testid="tool-input" className="overflow-x-auto whitespace-pre-wrap rounded-md bg-zinc-900 p-2 font-mono text-[12px] text-zinc-100">
      {prompt && <span className="select-none text-zinc-500">{prompt}</span>}
      {text}
    </pre>
  );
}
