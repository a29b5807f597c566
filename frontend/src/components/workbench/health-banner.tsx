import type { HealthReply } from "@mini-openclaw/protocol";
import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";

/** What keeps the workbench from working fully, and what to do about it. */
export function HealthBanner({ health, unreachable }: { health: HealthReply | null; unreachable: boolean }) {
  const { t } = useTranslation();
  const problems: Array<{ title: string; detail: string }> = [];
  if (unreachable) problems.push({ title: t("health.unreachable"), detail: t("health.unreachableFix") });
  if (health && !health.model.configured) {
    problems.push({ title: t("health.noModel"), detail: t("health.noModelFix") });
  }
  if (health?.sandbox.mode === "degraded") {
    problems.push({ title: t("health.noSandbox"), detail: `${health.sandbox.detail}. ${health.sandbox.hint ?? ""}` });
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
