"use client";
import { Check, ChevronRight, Loader2, ShieldAlert, TriangleAlert } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";
import { formatDuration } from "@/i18n/format";
import { ApprovalDecisionLine, ApprovalRequestCard } from "./approval-card";
import { ChangedFiles } from "./changed-files";
import { HookLine } from "./hook-line";
import type { ToolBlock } from "./tool-views/tool-view";
import { toolView } from "./tool-views/tool-views";
import { useTranslation } from "react-i18next";

const LONG = 600;

/** The input as an object (a model may send anything); a bare value is wrapped. */
const inputRecord = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : input == null ? {} : { input };

function Output({ text }: { text: string }) {
  const { t } = useTranslation();
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
          {expanded ? t("tool.showLess") : t("tool.showAll", { count: text.length })}
        </button>
      )}
    </div>
  );
}

/**
 * How long the call took, and apart from it how long it waited for a person (an approval's decision
 * came at `at`): "58 s" for a call that ran in 1 s after 57 s of waiting would say neither.
 */
function Duration({ block }: { block: ToolBlock }) {
  const { t } = useTranslation();
  const decided = block.approval?.request ? block.approval.decision : undefined;
  const waited = decided && block.startedAt !== undefined ? Math.max(0, decided.at - block.startedAt) : 0;
  const ran = Math.max(0, (block.durationMs ?? 0) - waited);
  return (
    <span className="text-xs tabular-nums text-zinc-500" data-testid="tool-duration" data-waited-ms={waited > 0 ? Math.round(waited) : undefined}>
      {formatDuration(ran)}
      {waited >= 1000 && <span data-testid="tool-waited">{` · ${t("tool.waited", { duration: formatDuration(waited) })}`}</span>}
    </span>
  );
}

/**
 * A tool call: name, input, output, duration and state; long output folded, the raw payload one
 * click away. What differs per tool (icon, summary line, how the input reads) is its view.
 */
/** `children`: the trace of the sub-agent a delegate call started (the block list renders it, nested). */
export function ToolCard({ block, children }: { block: ToolBlock; children?: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<boolean | null>(null);
  const [raw, setRaw] = useState(false);
  const view = toolView(block.name);
  const Icon = view.icon;
  const input = inputRecord(block.input);
  const failed = block.ok === false;
  const isOpen = open ?? (view.openWhenDone ? view.openWhenDone(block) : failed || (block.output !== undefined && block.output.length <= LONG));
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
        <ChevronRight className={cn("size-3.5 shrink-0 text-zinc-500 transition-transform", isOpen && "rotate-90")} />
        <Icon className="size-4 shrink-0 text-klein" />
        {block.mcp ? (
          <>
            <span className="font-mono text-[13px] font-semibold text-zinc-800">{block.mcp.tool}</span>
            <Badge variant="muted" data-testid="mcp-server-badge">{`MCP · ${block.mcp.server}`}</Badge>
          </>
        ) : (
          <span className="font-mono text-[13px] font-semibold text-zinc-800">{block.name}</span>
        )}
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500">{view.summary(input)}</span>
        {block.running && block.approval?.request && !block.approval.decision ? (
          <Badge variant="muted" data-testid="awaiting-approval"><ShieldAlert />{t("tool.awaitingApproval")}</Badge>
        ) : block.running ? (
          <Badge variant="muted"><Loader2 className="animate-spin" />{t("tool.running")}</Badge>
        ) : failed ? (
          <Badge variant="danger"><TriangleAlert />{t("tool.error")}</Badge>
        ) : (
          <Badge variant="success"><Check />{t("tool.ok")}</Badge>
        )}
        {block.durationMs !== undefined && <Duration block={block} />}
      </CollapsibleTrigger>
      {block.hooks?.map((run) => <HookLine key={run.id} run={run} />)}
      {block.approval?.decision ? (
        <ApprovalDecisionLine decision={block.approval.decision} />
      ) : (
        block.approval?.request && <ApprovalRequestCard request={block.approval.request} />
      )}
      {children}
      {block.changes && (block.changes.files.length > 0 || (block.changes.untracked?.length ?? 0) > 0) && (
        <ChangedFiles change={block.changes.change} files={block.changes.files} more={block.changes.more} untracked={block.changes.untracked} />
      )}
      <CollapsibleContent>
        <div className="space-y-2 border-t border-zinc-100 px-3 py-2">
          <div className="flex items-center justify-between">
            <span className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{t("tool.input")}</span>
            <button type="button" className="text-xs font-medium text-klein hover:underline" onClick={() => setRaw((r) => !r)}>
              {raw ? t("tool.formatted") : t("tool.raw")}
            </button>
          </div>
          {raw ? (
            <pre data-testid="tool-raw" className="overflow-x-auto rounded-md bg-zinc-900 p-2 font-mono text-[12px] text-zinc-100">
              {JSON.stringify({ id: block.id, name: block.name, input: block.input, output: block.output, ok: block.ok, duration_ms: block.durationMs, details: block.details }, null, 2)}
            </pre>
          ) : (
            <>
              {view.Input ? (
                <view.Input input={input} />
              ) : (
                <pre data-testid="tool-input" className="overflow-x-auto whitespace-pre-wrap rounded-md bg-zinc-50 p-2 font-mono text-[12px] text-zinc-700">
                  {JSON.stringify(block.input, null, 2)}
                </pre>
              )}
              {block.output !== undefined && (
                <>
                  <span className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{t("tool.output")}</span>
                  {(view.Output && <view.Output block={block} />) || <Output text={block.output} />}
                </>
              )}
            </>
          )}
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}
