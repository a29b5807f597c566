import type { HealthReply } from "@mini-openclaw/protocol";
import { Cpu, ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";

export function TopBar({ health, onModel }: { health: HealthReply | null; onModel: () => void }) {
  return (
    <header className="sticky top-0 z-20 flex h-12 shrink-0 items-center justify-between border-b border-zinc-200/70 bg-white/60 px-4 backdrop-blur-xl backdrop-saturate-150">
      <div className="flex items-center gap-2">
        <div className="grid size-6 place-items-center rounded-md bg-klein text-[11px] font-bold text-white">OC</div>
        <span className="text-[15px] font-semibold tracking-tight text-zinc-900">
          mini <span className="text-klein">OpenClaw</span>
        </span>
      </div>
      {health && (
        <div className="flex items-center gap-2" data-testid="status">
          <button type="button" data-testid="model-button" data-tip="Set up the model" onClick={onModel}>
            <Badge variant={health.model.configured ? "muted" : "warning"} className="cursor-pointer hover:opacity-80">
              <Cpu />
              {health.model.configured ? health.model.model : "set up a model"}
            </Badge>
          </button>
          <Badge variant={health.sandbox.mode === "bubblewrap" ? "success" : "warning"} data-tip={health.sandbox.detail}>
            {health.sandbox.mode === "bubblewrap" ? <ShieldCheck /> : <ShieldAlert />}
            {health.sandbox.mode === "bubblewrap" ? "sandboxed" : "no sandbox"}
          </Badge>
        </div>
      )}
    </header>
  );
}
