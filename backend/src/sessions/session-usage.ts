/**
 * What a session's model requests used, derived from its entries (the one place usage is stored is
 * the turn's `usage` events, and the reviewer's and compaction's entries): per request, with the day
 * it was made, the profile and model that answered and who asked (the agent, a sub-agent, the
 * reviewer, compaction). Sessions written before profiles count on the `default` profile.
 */
import { type ChatEvent, DEFAULT_PROFILE, type RequestUsage, type SessionEntry, type UsageRow, type UsageTotals } from "@mini-openclaw/protocol";

export interface UsageRecord {
  /** YYYY-MM-DD (UTC). */
  day: string;
  by: UsageRow["by"];
  profile: string;
  model: string;
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost: number | undefined;
}

const record = (day: string, by: UsageRecord["by"], usage: RequestUsage, model: string): UsageRecord => ({
  day,
  by,
  profile: usage.profile ?? DEFAULT_PROFILE,
  model: usage.model ?? model,
  input_tokens: usage.input_tokens,
  cached_tokens: usage.cached_tokens,
  output_tokens: usage.output_tokens,
  reasoning_tokens: usage.reasoning_tokens ?? 0,
  cost: usage.cost,
});

/** Every model request of the file (all branches), in file order. */
export function usageRecords(entries: SessionEntry[]): UsageRecord[] {
  const records: UsageRecord[] = [];
  // The model of the last step started, per agent depth: usage lines before profiles name none.
  const stepModel = new Map<number, string>();
  const visit = (event: ChatEvent, day: string, depth: number, agent: "agent" | "consolidation") => {
    if (event.type === "delegate") return visit(event.event, day, event.depth, agent);
    if (event.type === "step_start") stepModel.set(depth, event.model);
    else if (event.type === "usage") records.push(record(day, depth === 0 ? agent : "sub_agent", event, stepModel.get(depth) ?? ""));
  };
  // The turns the memory helper sent (a consolidation run, Save as skill): their agent's requests are its.
  const helperTurns = new Set(entries.flatMap((e) => (e.type === "user" && e.by === "consolidation" && e.turn !== undefined ? [e.turn] : [])));
  for (const entry of entries) {
    const day = entry.ts.slice(0, 10);
    if (entry.type === "event") visit(entry.event, day, 0, entry.turn !== undefined && helperTurns.has(entry.turn) ? "consolidation" : "agent");
    else if ((entry.type === "review" || entry.type === "compaction") && entry.usage) records.push(record(day, entry.type === "review" ? "reviewer" : "compaction", entry.usage, ""));
  }
  return records;
}

const emptyTotals = (): UsageTotals => ({ requests: 0, input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost: null });

function add(totals: UsageTotals, r: UsageRecord): void {
  totals.requests += 1;
  totals.input_tokens += r.input_tokens;
  totals.cached_tokens += r.cached_tokens;
  totals.output_tokens += r.output_tokens;
  totals.reasoning_tokens += r.reasoning_tokens;
  if (r.cost !== undefined) totals.cost = Math.round(((totals.cost ?? 0) + r.cost) * 1e6) / 1e6;
}

/** The records by profile, model and who asked, with their total. */
export function usageSummary(records: UsageRecord[]): { rows: UsageRow[]; total: UsageTotals } {
  const rows = new Map<string, UsageRow>();
  const total = emptyTotals();
  for (const r of records) {
    const key = `${r.profile}\u0000${r.model}\u0000${r.by}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { profile: r.profile, model: r.model, by: r.by, ...emptyTotals() }));
    add(row, r);
    add(total, r);
  }
  return { rows: [...rows.values()], total };
}
