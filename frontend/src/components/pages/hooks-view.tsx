"use client";
import { type ConfiguredHook, type HookRunRecord, hookEventNames, type SkillHooks } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { FileCog, FlaskConical, Loader2, ShieldAlert } from "lucide-react";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { HookLine } from "@/components/stage/hook-line";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/i18n/format";
import { api } from "@/lib/api";
import { keys, useHooks } from "@/lib/server-state";
import { WarningLine } from "@/components/ui/problem-card";

const HOOKS_FILE = "HOOKS.json";
/** A new HOOKS.json: Claude Code's shape, with no hooks yet. */
const EMPTY_HOOKS_FILE = `${JSON.stringify({ hooks: {} }, null, 2)}\n`;
const SHOWN_RUNS = 20;

/**
 * The user's hooks by event (HOOKS.json and trusted skills'), each with Test: run it now against
 * what this session recorded (its latest tool call) and see what it decided, the tool not run. Skills
 * that ship hooks ask for trust here; the latest runs and failures are listed last.
 */
export function HooksView({ sessionId, onOpenFile }: { sessionId: string | null; onOpenFile: (path: string) => void }) {
  const { t } = useTranslation();
  const { data: reply, error: loadError } = useHooks();
  const [actionError, setActionError] = useState<string | null>(null);
  const error = actionError ?? loadError?.message;
  if (error && !reply) return <div className="p-2 text-xs text-red-700">{error}</div>;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">{t("hooks.loading")}</div>;
  const byEvent = hookEventNames.map((event) => ({ event, hooks: reply.hooks.filter((h) => h.event === event) })).filter((g) => g.hooks.length > 0);
  const fileExists = reply.hooks.some((h) => h.source === HOOKS_FILE) || reply.problem !== null;
  return (
    <div className="space-y-3" data-testid="hooks-view">
      <div className="flex items-center justify-between px-1">
        <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("hooks.title", { count: reply.hooks.length })}</h3>
        <Button
          variant="ghost"
          size="sm"
          data-testid="edit-hooks"
          onClick={() =>
            void api.readFile(HOOKS_FILE).then(
              () => onOpenFile(HOOKS_FILE),
              () => api.saveFile(HOOKS_FILE, EMPTY_HOOKS_FILE).then(() => onOpenFile(HOOKS_FILE), (err: Error) => setActionError(err.message)),
            )
          }
        >
          <FileCog /> {fileExists ? t("common.editFile", { file: HOOKS_FILE }) : t("common.createFile", { file: HOOKS_FILE })}
        </Button>
      </div>
      {reply.problem && <WarningLine text={reply.problem} testId="hooks-problem" />}
      {error && <div className="px-1 text-xs text-red-700">{error}</div>}
      {reply.hooks.length === 0 && (
        <p className="px-1 text-xs leading-relaxed text-zinc-500" data-testid="hooks-empty">
          <Trans i18nKey="hooks.empty" components={{ code: <code /> }} />
        </p>
      )}
      {byEvent.map(({ event, hooks }) => (
        <section key={event} className="space-y-1.5">
          <h4 className="px-1 text-xs font-semibold text-zinc-700">{event}</h4>
          {hooks.map((hook) => (
            <HookCard key={hook.id} hook={hook} sessionId={sessionId} lastRun={reply.runs.find((run) => !run.test && run.event === hook.event && run.source === hook.source && run.command === hook.command)} />
          ))}
        </section>
      ))}
      {reply.skills.map((skill) => (
        <SkillTrustCard key={skill.skill} skill={skill} onError={setActionError} />
      ))}
      <section className="space-y-1">
        <h4 className="px-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("hooks.lastRuns")}</h4>
        {reply.runs.length === 0 && <p className="px-1 text-xs text-zinc-500">{t("hooks.noRuns")}</p>}
        <div className="-mx-2" data-testid="hook-runs">
          {reply.runs.slice(0, SHOWN_RUNS).map((run: HookRunRecord) => (
            <HookLine key={run.id} run={run} />
          ))}
        </div>
      </section>
    </div>
  );
}

/** A configured hook: what it matches and runs, where from, why it does not run; its last run; Test. */
function HookCard({ hook, sessionId, lastRun }: { hook: ConfiguredHook; sessionId: string | null; lastRun: HookRunRecord | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<HookRunRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const test = async () => {
    setTesting(true);
    setError(null);
    try {
      setResult(await api.testHook({ hook: hook.id, event: hook.event, ...(sessionId ? { session_id: sessionId } : {}) }));
      await queryClient.invalidateQueries({ queryKey: keys.hooks });
    } catch (err) {
      setResult(null);
      setError((err as Error).message);
    } finally {
      setTesting(false);
    }
  };
  return (
    <div data-testid="hook-card" data-hook-id={hook.id} className="rounded-lg border border-zinc-200 bg-white px-2.5 py-2 text-xs">
      <div className="flex items-center gap-1.5">
        {hook.matcher !== undefined && <Badge variant="muted" data-testid="hook-matcher">{hook.matcher || "*"}</Badge>}
        <span className="min-w-0 flex-1 truncate font-mono text-[12px] text-zinc-800" data-tip={hook.command}>{hook.command}</span>
        <Button size="sm" variant="outline" disabled={testing || hook.refused !== undefined} onClick={() => void test()} data-testid="hook-test" data-tip={t("hooks.testTip")}>
          {testing ? <Loader2 className="animate-spin" /> : <FlaskConical />} {t("hooks.test")}
        </Button>
      </div>
      <div className="mt-1 text-[11px] text-zinc-500">
        {hook.source} · {t("hooks.timeout", { count: hook.timeout_seconds })}
      </div>
      {hook.refused && <WarningLine text={hook.refused} testId="hook-refused" />}
      {lastRun && !result && (
        <div className="mt-1 text-[11px] text-zinc-500" data-testid="hook-last-run">
          {t("hooks.lastRun", { outcome: lastRun.decision ? t(`hooks.decision.${lastRun.decision}`) : t(`hooks.status.${lastRun.status}`), when: formatTime(lastRun.started_at) })}
          {lastRun.error ? ` · ${lastRun.error}` : ""}
        </div>
      )}
      {error && <div className="mt-1 text-red-700" data-testid="hook-test-error">{error}</div>}
      {result && (
        <div className="-mx-2.5 mt-1.5 border-t border-zinc-100 pt-1.5" data-testid="hook-test-result">
          <HookLine run={result} />
        </div>
      )}
    </div>
  );
}

/** A skill's hooks: each command shown, run only once trusted as they are now. */
function SkillTrustCard({ skill, onError }: { skill: SkillHooks; onError: (message: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const setTrust = async (trusted: boolean) => {
    setSending(true);
    try {
      await api.trustSkillHooks(skill.skill, skill.digest, trusted);
      await queryClient.invalidateQueries({ queryKey: keys.hooks });
    } catch (err) {
      onError((err as Error).message);
    } finally {
      setSending(false);
    }
  };
  return (
    <div data-testid="skill-hooks-card" data-skill={skill.skill} data-trusted={skill.trusted} className={skill.trusted ? "rounded-lg border border-zinc-200 bg-white p-2.5 text-xs" : "rounded-lg border border-amber-300 bg-amber-50 p-2.5 text-xs text-amber-950"}>
      <div className="flex items-center gap-1.5 font-semibold">
        <ShieldAlert className="size-3.5 shrink-0" />
        {skill.trusted ? t("hooks.skillTrusted", { skill: skill.skill }) : t("hooks.skillAsks", { skill: skill.skill })}
      </div>
      {skill.problem && <WarningLine text={skill.problem} />}
      <ul className="mt-1.5 space-y-1">
        {skill.commands.map((c, i) => (
          <li key={i} className="font-mono text-[11px]">
            <span className="font-sans font-semibold">{c.event}{c.matcher ? ` (${c.matcher})` : ""}: </span>
            {c.command}
          </li>
        ))}
      </ul>
      <div className="mt-2 flex gap-1.5">
        {skill.trusted ? (
          <Button size="sm" variant="outline" disabled={sending} onClick={() => void setTrust(false)} data-testid="skill-hooks-untrust">{t("hooks.untrust")}</Button>
        ) : (
          <Button size="sm" disabled={sending || skill.problem !== null} onClick={() => void setTrust(true)} data-testid="skill-hooks-trust">{t("hooks.trust")}</Button>
        )}
      </div>
    </div>
  );
}
