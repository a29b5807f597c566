"use client";
import type { ModelProfile } from "@mini-openclaw/protocol";
import { useState } from "react";
import { useModels } from "@/lib/server-state";

/** What a profile can do, in words short enough for a menu line. */
function capabilities(profile: ModelProfile): string {
  const caps = Object.entries(profile.capabilities ?? {})
    .filter(([, on]) => on)
    .map(([name]) => name);
  return caps.length > 0 ? ` · ${caps.join(", ")}` : "";
}

/**
 * The model profile by the composer: the session's (from its next turn on), or, with "this message
 * only", the next message's alone. Lists every profile with its model and what it can do.
 */
export function ModelPicker({ session, once, onChoose }: { session: string | null; once: string | null; onChoose: (name: string, once: boolean) => void }) {
  const { data } = useModels();
  const [onlyNext, setOnlyNext] = useState(false);
  if (!data) return null;
  const current = once ?? session ?? data.default;
  return (
    <div className="flex items-center gap-2 text-[11.5px] text-zinc-500" data-testid="model-picker">
      <select
        aria-label="Model profile"
        data-testid="model-select"
        className="max-w-[60%] truncate rounded border border-zinc-200 bg-white px-1.5 py-0.5 text-[11.5px] text-zinc-700 outline-none focus:border-klein"
        value={current}
        onChange={(e) => onChoose(e.target.value, onlyNext)}
      >
        {data.profiles.map((profile) => (
          <option key={profile.name} value={profile.name}>
            {profile.name} · {profile.model}
            {capabilities(profile)}
            {profile.name === data.default ? " (default)" : ""}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-1" data-tip="Pick a profile for the next message alone; the session keeps its own">
        <input type="checkbox" data-testid="model-once" checked={onlyNext} onChange={(e) => setOnlyNext(e.target.checked)} />
        this message only
      </label>
      {once && (
        <span data-testid="model-once-pending" className="text-amber-700">
          next message: {once}
        </span>
      )}
    </div>
  );
}
