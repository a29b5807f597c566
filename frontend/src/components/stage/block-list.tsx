"use client";
import { CopyButton } from "@/components/ui/copy-button";
import { CornerDownRight, Sparkles, TriangleAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { Block } from "@/lib/turn-model";
import { assertNever } from "@/lib/utils";
import { chatErrorText } from "@/i18n/server-messages";
import { useTranslation } from "react-i18next";
import { AnswerText } from "./answer-text";
import { CompactionBlock } from "./compaction-block";
import { ReviewBlock } from "./review-block";
import { ThoughtBlock } from "./thought-block";
import { SubAgentTrace } from "./sub-agent-trace";
import { ToolCard } from "./tool-card";
import { HookLine } from "./hook-line";
import { MemoryChangeCard } from "./memory-change-card";

const MEMORY_FILE = "memory/MEMORY.md";

/** What an agent did in a turn, in order: the main agent's, or a sub-agent's under its delegate call. */
export function BlockList({ blocks, streaming }: { blocks: Block[]; streaming: boolean }) {
  const { t } = useTranslation();
  const lastIndex = blocks.length - 1;
  return (
    <>
      {blocks.map((block, index) => {
        switch (block.kind) {
          case "thought":
            return <ThoughtBlock key={index} text={block.text} ms={block.ms} streaming={streaming && index === lastIndex} />;
          case "tool": {
            const memory = block.changes?.files.find((f) => f.path === MEMORY_FILE && f.kind !== "deleted");
            return (
              <div key={block.id} className="space-y-2">
                <ToolCard block={block}>
                  {block.sub && (
                    <SubAgentTrace sub={block.sub}>
                      <BlockList blocks={block.sub.turn.blocks} streaming={block.sub.turn.status === "streaming"} />
                    </SubAgentTrace>
                  )}
                </ToolCard>
                {memory && block.changes && <MemoryChangeCard change={block.changes.change} path={memory.path} />}
              </div>
            );
          }
          case "tool_input":
            return (
              <div key={block.id} data-testid="tool-input" className="truncate rounded-md border border-dashed border-zinc-200 px-3 py-1.5 font-mono text-[12px] text-zinc-500">
                {block.name} {block.text}
              </div>
            );
          case "skill":
            return (
              <div key={index} data-testid="skill-activation">
                <Badge
                  data-tip={[
                    block.location,
                    ...(block.allowedTools ? [t("blocks.skillTools", { tools: block.allowedTools.join(", ") })] : []),
                    ...(block.allowedCommands ? [t("blocks.skillCommands", { commands: block.allowedCommands.join(", ") })] : []),
                  ].join(" · ")}
                >
                  <Sparkles />
                  {t("blocks.skillActive", { name: block.name })}
                </Badge>
              </div>
            );
          case "text":
            return (
              <div key={index} data-testid="answer" data-partial={block.partial ? "true" : undefined}>
                <AnswerText text={block.text} />
                {!block.partial && <CopyButton text={() => block.text} label={t("blocks.copyAnswer")} testId="copy-answer" className="-ml-1 mt-0.5" />}
                {block.cutByLimit && (
                  <div data-testid="answer-cut" className="mt-1 text-[11px] text-amber-700">
                    {t("blocks.cut")}
                  </div>
                )}
                {block.interrupted && (
                  <div data-testid="answer-interrupted" className="mt-1 text-[11px] text-amber-700">
                    {t("blocks.interrupted")}
                  </div>
                )}
              </div>
            );
          case "prefix":
            return (
              <div key={index} data-testid="prefix-changed" className="text-[11px] text-zinc-500">
                {t("blocks.prefixChanged", { files: block.changed.join(", ") })}
              </div>
            );
          case "model_switch":
            return (
              <div key={index} data-testid="model-switch" className="text-[11px] text-amber-700">
                {block.why === "failover" ? t("blocks.failover", { to: block.to, from: block.from }) : t("blocks.switched", { to: block.to })}{" "}
                <span className="text-zinc-500">{block.reason}</span>
              </div>
            );
          case "compaction":
            return <CompactionBlock key={index} turns={block.turns} summary={block.summary} skills={block.skills} forced={block.forced} />;
          case "error":
            return (
              <div
                key={index}
                data-testid="turn-error"
                className={block.code === "aborted" ? "text-xs text-zinc-500" : "flex gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"}
              >
                {block.code !== "aborted" && <TriangleAlert className="mt-0.5 size-4 shrink-0" />}
                <span>{chatErrorText(block.code, block.message)}</span>
              </div>
            );
          case "steer":
            return (
              <div key={index} data-testid="steer-message" className="flex justify-end">
                <div className="flex max-w-[85%] items-start gap-1.5 rounded-2xl rounded-tr-sm border border-klein/30 bg-klein-50 px-3 py-1.5 text-[14px] text-zinc-800">
                  <CornerDownRight aria-label={t("blocks.steered")} className="mt-1 size-3.5 shrink-0 text-klein" />
                  <span className="whitespace-pre-wrap">{block.text}</span>
                </div>
              </div>
            );
          case "review":
            return <ReviewBlock key={index} advice={block.advice} record={block.record} />;
          case "hook":
            return (
              <div key={block.run.id} className="-mx-3">
                <HookLine run={block.run} />
              </div>
            );
          default:
            return assertNever(block);
        }
      })}
    </>
  );
}
