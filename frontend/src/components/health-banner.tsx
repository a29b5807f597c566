import type { HealthReply } from "@mini-openclaw/protocol";
import { TriangleAlert } from "lucide-react";

/** What keeps the workbench from working fully, and what to do about it. */
export function HealthBanner({ health, unreachable }: { health: HealthReply | null; unreachable: boolean }) {
  const problems: Array<{ title: string; detail: string }> = [];
  if (unreachable) problems.push({ title: "The workbench server is not reachable.", detail: "Start it again with the README's start command, then reload." });
  if (health && !health.model.configured) {
    problems.push({ title: "Chat is off until a model is set up.", detail: "Choose Model at the top right and pick a server (OpenAI, Ollama, vLLM…), or put OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL) in KEY.md and restart." });
  }
  if (health?.sandbox.mode === "degraded") {
    problems.push({ title: "Tools run without an OS sandbox.", detail: `${health.sandbox.detail}. ${health.sandbox.hint ?? ""}` });
  }
  if (problems.length === 0) return null;
  return (
    <div className="space-y-px" data-testid="health-banner">
      {problems.map((p) => (
        <div key={p.title} className="flex items-start gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-[13px] text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" />
          <div>
            <span className="font-semibold">{p.title}</span> <span className="text-amber-800">{p.detail}</span>
          </div>
        </div>
      ))}
    </div>
  );
}
