"use client";
import { Braces, Check, ChevronRight, FileText, Globe, Loader2, Search, SquareTerminal, TriangleAlert, Users, Wrench } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import type { Block } from "@/lib/turn-model";
import { SubAgentTrace } from "./sub-agent-trace";
import { cn, formatDuration } from "@/lib/utils";

type ToolBlock = Extract<Block, { kind: "tool" }>;

const ICONS: Record<string, typeof Wrench> = {
  read_file: FileText,
  terminal: SquareTerminal,
  python_repl: Braces,
  fetch_url: Globe,
  search_knowledge_base: Search,
  delegate: Users,
};

const LONG = 600;

/** One line that says what the call was about: the path, command, URL or code. */
function summary(input: unknown): string {
  if (input === null || typeof input !== "object") return input == null ? "" : String(input);
  const record = input as Record<string, unknown>;
  if (typeof record.agent === "string" && typeof record.task === "string") return `${record.agent}: ${record.task.split("\n")[0]}`;
  const first = record.path ?? record.command ?? record.url ?? record.code ?? record.query ?? Object.values(record)[0];
  return typeof first === "string" ? first.split("\n")[0] : JSON.stringify(input);
}

function Output({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > LONG;
  return (
    <div>
      <pre
        data-testid="tool-output"
        className={cn(
          "overflow-x-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-2 font-mono text-[12px] leading-relaxed text-zinc-700",
          long && !expanded && "max-h-48 overflow-hidden",
        )}
      >
        {text}
      </pre>
      {long && (
        <button type="button" className="mt-1 text-xs font-medium text-klein hover:underline" onClick={() => setExpanded((e) => !e)}>
          {expanded ? "Show less" : `Show all ${text.length.toLocaleString()} characters`}
        </button>
      )}
    </div>
  );
}

/** A tool call: name, input, output, duration and state; long output folded, the raw payload one click away. */
export function ToolCard({ block }: { block: ToolBlock }) {
  const [open, setOpen] = useState<boolean | null>(null);
  const [raw, setRaw] = useState(false);
  const Icon = ICONS[block.name] ?? Wrench;
  const failed = block.ok === false;
  // A delegate call shows its sub-agent's trace instead; its input and answer stay one click away.
  const isOpen = open ?? (failed || (block.output !== undefined && block.output.length <= LONG && block.name !== "read_file" && !block.sub));
  return (
    <Collapsible
      open={isOpen}
      onOpenChange={setOpen}
      data-testid="tool-card"
      data-tool={block.name}
      data-status={block.running ? "running" : failed ? "error" : "ok"}
      className={cn("rounded-lg border bg-white text-sm shadow-[0_1px_2px_rgba(0,0,0,0.03)]", failed ? "border-red-200" : "border-zinc-200")}
    >
      <CollapsibleTrigger className="flex w-full items-center gap-2 px-3 py-2 text-left">
        <ChevronRight className={cn("size-3.5 shrink-0 text-zinc-400 transition-transform", isOpen && "rotate-90")} />
        <Icon className="size-4 shrink-0 text-klein" />
        <span className="font-mono text-[13px] font-semibold text-zinc-800">{block.name}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500">{summary(block.input)}</span>
        {block.running ? (
          <Badge variant="muted"><Loader2 className="animate-spin" />running</Badge>
        ) : failed ? (
          <Badge variant="danger"><TriangleAlert />error</Badge>
        ) : (
          <Badge variant="success"><Check />ok</Badge>
        )}
        {block.durationMs !== undefined && <span className="text-xs tabular-nums text-zinc-400" data-testid="tool-duration">{formatDuration(block.durationMs)}</span>}
      </CollapsibleTrigger>
      {block.sub && <SubAgentTrace sub={block.sub} />}
      <CollapsibleContent>
        <div className="space-y-2 border-t border-zinc-100 px-3 py-2">
          <div className="flex items-center justify-between">
            <span className="text-[11px] font-semibold uppercase tracking-wide text-zinc-400">Input</span>
            <button type="button" className="text-xs font-medium text-klein hover:underline" onClick={() => setRaw((r) => !r)}>
              {raw ? "Formatted" : "Raw"}
            </button>
          </div>
          {raw ? (
            <pre data-testid="tool-raw" className="overflow-x-auto rounded-md bg-zinc-900 p-2 font-mono text-[12px] text-zinc-100">
              {JSON.stringify({ id: block.id, name: block.name, input: block.input, output: block.output, ok: block.ok, duration_ms: block.durationMs, details: block.details }, null, 2)}
            </pre>
          ) : (
            <>
              <pre className="overflow-x-auto whitespace-pre-wrap rounded-md bg-zinc-50 p-2 font-mono text-[12px] text-zinc-700">{JSON.stringify(block.input, null, 2)}</pre>
              {block.output !== undefined && (
                <>
                  <span className="text-[11px] font-semibold uppercase tracking-wide text-zinc-400">Output</span>
                  <Output text={block.output} />
                </>
              )}
            </>
          )}
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}
