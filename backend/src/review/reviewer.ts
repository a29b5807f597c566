import { HumanMessage } from "@langchain/core/messages";
import type { RequestUsage, ReviewInfo } from "@mini-openclaw/protocol";
import { runAgentTurn } from "../agent/run-agent-turn.js";
import type { Config } from "../config/config.js";
import { addUsage } from "../config/resolved-profile.js";
import type { ModelProfiles } from "../models/model-profiles.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { ToolRuntime } from "../tools/core-tool.js";
import { coreTools } from "../tools/core-tools.js";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import { REVIEWER_FILE, SESSIONS_DIR } from "../config/data-root-layout.js";
import { parseReview } from "./parse-review.js";

const DEFAULT_INSTRUCTIONS = "Review the turn for mistakes and missed steps.";
const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

const OUTPUT_CONTRACT =
  '\n\nAnswer with one JSON object and nothing else: {"advice": "<for the agent\'s next turn, or empty>", ' +
  '"record": "<your assessment, for the user>"}.';

interface ReviewerDeps {
  config: Config;
  sessions: SessionStore;
  ui: UiEventBus;
  runtime: ToolRuntime;
  /** The reviewer's profile: its own setting (MODELS.json `helpers.reviewer`), else the session's. */
  models: ModelProfiles;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * After each finished turn (when switched on), a reviewer reads the turn with `read_file` alone and
 * leaves `{ advice, record }`: the advice goes to the main agent's next turn, the record stays in
 * the session for the user. It starts after the answer was sent and never holds the turn up.
 */
export class Reviewer {
  enabled: boolean;
  private readonly running = new Set<string>();
  private latestReview: ReviewInfo | null = null;
  /** Stops reviews still running when the server closes. */
  private readonly closing = new AbortController();

  constructor(private readonly deps: ReviewerDeps) {
    this.enabled = deps.config.reviewerEnabled;
  }

  status() {
    return { enabled: this.enabled, running: [...this.running], latest: this.latestReview };
  }

  close(): void {
    this.closing.abort("server closing");
  }

  /** Reviews the session's last turn in the background; a failure is logged and recorded, never thrown. */
  afterTurn(sessionId: string, turn?: number): void {
    if (!this.enabled || this.running.has(sessionId)) return;
    this.running.add(sessionId);
    this.deps.ui.publish({ type: "refresh", target: "agents" });
    void this.review(sessionId, turn)
      .catch((err) => this.deps.log.error({ err, sessionId }, "review failed"))
      .finally(() => {
        this.running.delete(sessionId);
        this.deps.ui.publish({ type: "refresh", target: "agents" });
      });
  }

  /** `turn`: the id the review entry is stored under (a follow-up turn may have started since). */
  private async review(sessionId: string, turn?: number): Promise<void> {
    const { config, sessions, runtime, log, ui } = this.deps;
    await sessions.flush(sessionId);
    const lines = await sessions.lastTurnLines(sessionId);
    if (!lines) return;
    const instructions =
      (await readConfinedTextIfPresent(config.dataRoot, REVIEWER_FILE, MAX_INSTRUCTIONS_BYTES).catch((err) => {
        log.warn({ reason: (err as Error).message }, "REVIEWER.md refused; reviewing with the default instructions");
        return null;
      })) ?? DEFAULT_INSTRUCTIONS;
    const path = `${SESSIONS_DIR}/${sessionId}.jsonl`;
    const task =
      `Review turn ${lines.turn} of the session file ${path}: it is lines ${lines.from}-${lines.to} (JSON Lines, one entry per line: ` +
      `the user's message, then the turn's events as they streamed: the agent's thoughts and text, tool calls and their results, its final answer). Read exactly those lines with ` +
      `read_file (offset ${lines.from}, limit ${lines.to - lines.from + 1}).`;
    const { models } = this.deps;
    const sessionProfile = (await sessions.summary(sessionId)).model;
    const profile = models.helper("reviewer") ?? (sessionProfile && models.has(sessionProfile) ? sessionProfile : models.defaultName());
    let usage: RequestUsage | undefined;
    const result = await runAgentTurn({
      profiles: models.chain(profile),
      systemPrompt: instructions.trim() + OUTPUT_CONTRACT,
      messages: [new HumanMessage(task)],
      tools: coreTools(runtime, { sessionId, depth: 1, roles: ["reviewer"] }).filter((tool) => tool.name === "read_file"),
      locationPrefix: config.locationPrefix,
      maxSteps: config.limits.maxSteps,
      signal: AbortSignal.any([AbortSignal.timeout(config.delegation.timeoutMs), this.closing.signal]),
      log,
      cleanOutput: (text) => runtime.secrets.scrub(text),
      emit: (event) => {
        if (event.type === "usage") usage = addUsage(usage, event);
      },
    });
    if (this.closing.signal.aborted) return;
    const review = result.type === "final" ? parseReview(result.content) : { advice: "", record: `The review failed: ${result.message}` };
    const ts = new Date().toISOString();
    await sessions.append(sessionId, { type: "review", ts, ...(turn !== undefined ? { turn } : {}), content: review.record, advice: review.advice, ...(usage ? { usage } : {}) });
    this.latestReview = { session_id: sessionId, ts, advice: review.advice, record: review.record };
    ui.publish({ type: "review", session_id: sessionId });
    if (result.type !== "final") log.warn({ sessionId }, "review ended without an answer");
  }
}
