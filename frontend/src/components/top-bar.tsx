import type { HealthReply } from "@mini-openclaw/protocol";
import { Cpu, ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { type ThemePreference, useTheme } from "@/lib/theme";

/** Light, Dark, or the system's (the default); remembered in this browser. */
function ThemeControl() {
  const { preference, setPreference } = useTheme();
  return (
    <label className="flex items-center gap-1 text-[12px] text-zinc-600">
      Theme
      <select
        aria-label="Theme"
        data-testid="theme"
        value={preference}
        onChange={(e) => setPreference(e.target.value as ThemePreference)}
        className="rounded-md border border-zinc-200 bg-white px-1.5 py-0.5 text-[12px] text-zinc-800"
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

export function TopBar({ health, onModel }: { health: HealthReply | null; onModel: () => void }) {
  return (
    <header className="sticky top-0 z-20 flex h-12 shrink-0 items-center justify-between border-b border-zinc-200/70 bg-white/60 px-4 backdrop-blur-xl backdrop-saturate-150">
      <div className="flex items-center gap-2">
        <div className="grid size-6 place-items-center rounded-md bg-klein text-[11px] font-bold text-white">OC</div>
        <span className="text-[15px] font-semibold tracking-tight text-zinc-900">
          mini <span className="text-klein">OpenClaw</span>
        </span>
      </div>
      <div className="flex items-center gap-2">
        <ThemeControl />
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
      </div>
    </header>
  );
}
