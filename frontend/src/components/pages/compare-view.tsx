"use client";
import type { ComparedRun, CompareReply, PromptDiff } from "@mini-openclaw/protocol";
import { wordDiff } from "@mini-openclaw/protocol/line-diff";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { formatCost, formatDuration, formatNumber } from "@/i18n/format";
import { api } from "@/lib/api";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

const CALL_BADGE = { same: "muted", different: "warning", extra: "default", missing: "danger" } as const;

/** A run's answer; a later run's with the words that differ from the first's marked. */
function Answer({ run, first }: { run: ComparedRun; first: ComparedRun | null }) {
  const diff = first && run.answer && first.answer ? wordDiff(first.answer, run.answer) : null;
  return (
    <div className="whitespace-pre-wrap rounded-md border border-zinc-200 bg-white p-2 text-[13px] leading-relaxed text-zinc-800" data-testid="compare-answer">
      {diff
        ? diff.map((part, i) =>
            part.kind === "same" ? (
              <span key={i}>{part.text}</span>
            ) : (
              <span key={i} className={cn(part.kind === "added" ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900 line-through")} data-diff={part.kind}>
                {part.text}
              </span>
            ),
          )
        : run.answer || run.error}
    </div>
  );
}

function RunColumn({ run, first, calls }: { run: ComparedRun; first: ComparedRun | null; calls: CompareReply["tool_calls"][number] | null }) {
  const { t } = useTranslation();
  const ms = (value: number | null) => (value === null ? "–" : formatDuration(value));
  return (
    <section className="min-w-0 flex-1 space-y-2" data-testid="compare-run" data-session={run.session_id}>
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <Badge variant={run.replay_of ? "default" : "muted"}>{run.replay_of ? t("compare.replay") : t("compare.original")}</Badge>
        <span className="font-medium text-zinc-800">{run.profile ?? "–"}</span>
        <span className="text-zinc-500">{run.model}</span>
      </div>
      {run.replay_of && (
        <div className="text-[11px] text-zinc-500">
          {t(`replay.tools.${run.replay_of.tools}`)} · {t(`replay.prompt.${run.replay_of.prompt}`)}
        </div>
      )}
      <Answer run={run} first={first} />
      <dl className="grid grid-cols-2 gap-x-2 text-[11.5px] text-zinc-600" data-testid="compare-figures">
        <dt>{t("compare.tokens")}</dt>
        <dd className="tabular-nums">{t("compare.tokensInOut", { input: formatNumber(run.input_tokens), output: formatNumber(run.output_tokens) })}</dd>
        <dt>{t("compare.cost")}</dt>
        <dd className="tabular-nums">{run.cost === null ? "–" : formatCost(run.cost)}</dd>
        <dt>{t("compare.firstToken")}</dt>
        <dd className="tabular-nums">{ms(run.first_token_ms)}</dd>
        <dt>{t("compare.total")}</dt>
        <dd className="tabular-nums">{ms(run.total_ms)}</dd>
      </dl>
      {run.tool_calls.length > 0 && (
        <ul className="space-y-0.5 text-[11.5px]" data-testid="compare-calls">
          {run.tool_calls.map((call, i) => (
            <li key={i} className="flex items-center gap-1.5">
              <span className="font-mono text-zinc-800">{call.name}</span>
              <span className="min-w-0 flex-1 truncate font-mono text-zinc-500">{JSON.stringify(call.input)}</span>
              {call.replayed && <Badge variant="muted">{t("compare.recorded")}</Badge>}
              {calls?.[i] && <Badge variant={CALL_BADGE[calls[i].status]} data-testid="compare-call-status">{t(`compare.call.${calls[i].status}`)}</Badge>}
            </li>
          ))}
          {calls?.slice(run.tool_calls.length).map((c, i) => (
            <li key={`m${i}`} className="flex items-center gap-1.5 text-zinc-500">
              <span className="font-mono">{c.name}</span>
              <Badge variant={CALL_BADGE[c.status]} data-testid="compare-call-status">{t(`compare.call.${c.status}`)}</Badge>
            </li>
          ))}
        </ul>
      )}
      {run.thoughts && (
        <details className="text-[12px] text-zinc-600">
          <summary className="cursor-pointer text-zinc-500">{t("compare.thoughts")}</summary>
          <p className="mt-1 whitespace-pre-wrap">{run.thoughts}</p>
        </details>
      )}
    </section>
  );
}

/** What the model was sent in each run, section by section: the ones that differ with their lines. */
export function PromptDiffView({ diff }: { diff: PromptDiff }) {
  const { t } = useTranslation();
  const changed = diff.sections.filter((s) => s.status !== "same");
  return (
    <section className="space-y-1.5" data-testid="prompt-diff">
      <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("compare.promptDiff")}</h3>
      {(!diff.before || !diff.after) && <p className="text-xs text-zinc-500">{t("compare.promptNotKept")}</p>}
      {diff.history && diff.history.before !== diff.history.after && <p className="text-xs text-zinc-600">{t("compare.history", { before: diff.history.before, after: diff.history.after })}</p>}
      {diff.before && diff.after && changed.length === 0 && <p className="text-xs text-zinc-600" data-testid="prompt-same">{t("compare.promptSame")}</p>}
      {changed.map((section) => (
        <div key={section.name} className="rounded-md border border-zinc-200" data-testid="prompt-section" data-section={section.name} data-status={section.status}>
          <div className="flex items-center gap-1.5 border-b border-zinc-100 px-2 py-1 text-xs">
            <span className="font-medium text-zinc-800">{section.name}</span>
            <Badge variant={section.status === "changed" ? "warning" : section.status === "added" ? "success" : "danger"}>{t(`compare.section.${section.status as "changed" | "added" | "removed"}`)}</Badge>
            <span className="ml-auto text-[11px] text-zinc-500 tabular-nums">
              {section.before_chars ?? 0} → {section.after_chars ?? 0}
            </span>
          </div>
          {section.lines && (
            <pre className="max-h-48 overflow-auto px-2 py-1 font-mono text-[11.5px] leading-snug">
              {section.lines.map((line, i) => (
                <div key={i} className={cn(line.kind === "added" && "bg-emerald-50 text-emerald-900", line.kind === "removed" && "bg-red-50 text-red-900")} data-line={line.kind}>
                  {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
                  {line.text}
                </div>
              ))}
            </pre>
          )}
        </div>
      ))}
    </section>
  );
}

/** Runs of one turn side by side (the first is the original): answers, figures, tool calls, and what each was sent. */
export function CompareView({ runs }: { runs: string }) {
  const { t } = useTranslation();
  const { data, error } = useQuery({
    queryKey: ["compare", runs],
    queryFn: () => api.compare(runs),
    // A replay still running: looked at again until every run has ended.
    refetchInterval: (query) => (query.state.data?.runs.some((r) => !r.answer && !r.error) ? 1000 : false),
  });
  if (error) return <p className="text-xs text-red-700">{error.message}</p>;
  if (!data) return <p className="text-xs text-zinc-500">{t("common.loading")}</p>;
  const first = data.runs[0];
  return (
    <div className="space-y-4" data-testid="compare-view">
      <p className="text-xs text-zinc-600">{t("compare.message", { message: first.message })}</p>
      <div className="flex gap-3">
        {data.runs.map((run, i) => (
          <RunColumn key={`${run.session_id}:${run.turn}`} run={run} first={i === 0 ? null : first} calls={i === 0 ? null : data.tool_calls[i - 1]} />
        ))}
      </div>
      {data.prompts.map((diff, i) => (
        <PromptDiffView key={i} diff={diff} />
      ))}
    </div>
  );
}
