"use client";
import { type BrowserStep, browserStepSchema } from "@mini-openclaw/protocol";
import { BookPlus, Check, Globe } from "lucide-react";
import { createContext, useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api";
import { formatBytes } from "@/i18n/format";
import { firstLine, type ToolBlock, type ToolView } from "./tool-view";

/** What a browser card can ask of the page around it: show a screenshot in the Inspector, save the page to knowledge. */
export interface BrowserCardActions {
  openScreenshot(src: string, title: string): void;
  /** Saves the page the session's browser shows at `url`; resolves to the file written. */
  saveToKnowledge(url: string): Promise<string>;
}
export const BrowserCardContext = createContext<BrowserCardActions | null>(null);

/** A browser step from its card's details (null for a call that failed before the browser answered). */
function stepOf(block: ToolBlock): BrowserStep | null {
  const parsed = browserStepSchema.safeParse(block.details);
  return parsed.success && parsed.data.url !== undefined ? parsed.data : null;
}

/** The outline the model got: everything after the line that introduces it. */
function outlineOf(output: string): string | null {
  const at = output.search(/^Outline\b.*:$/m);
  return at === -1 ? null : output.slice(output.indexOf("\n", at) + 1);
}

function SaveToKnowledge({ url }: { url: string }) {
  const { t } = useTranslation();
  const actions = useContext(BrowserCardContext);
  const [state, setState] = useState<{ kind: "idle" | "saving" } | { kind: "saved"; path: string } | { kind: "failed"; message: string }>({ kind: "idle" });
  if (!actions) return null;
  const save = async () => {
    setState({ kind: "saving" });
    try {
      setState({ kind: "saved", path: await actions.saveToKnowledge(url) });
    } catch (err) {
      setState({ kind: "failed", message: (err as Error).message });
    }
  };
  return (
    <span className="inline-flex items-center gap-1.5">
      <button type="button" data-testid="browser-save" disabled={state.kind === "saving"} onClick={() => void save()} className="inline-flex items-center gap-1 rounded border border-zinc-200 px-1.5 py-0.5 text-[11px] text-zinc-700 hover:bg-zinc-50 disabled:opacity-60">
        {state.kind === "saved" ? <Check className="size-3" /> : <BookPlus className="size-3" />}
        {t("browser.save")}
      </button>
      {state.kind === "saved" && <span data-testid="browser-saved" className="font-mono text-[11px] text-zinc-500">{state.path}</span>}
      {state.kind === "failed" && <span role="alert" className="text-[11px] text-red-700">{state.message}</span>}
    </span>
  );
}

/** One browser step: the action on the page, its screenshot (opens in the Inspector), the notes, and the outline the model got. */
function BrowserOutput({ block }: { block: ToolBlock }) {
  const { t } = useTranslation();
  const actions = useContext(BrowserCardContext);
  const step = stepOf(block);
  if (!step) return null;
  const output = block.output ?? "";
  const outline = outlineOf(output);
  const shot = step.screenshot;
  const src = shot ? api.screenshotUrl(shot.id) : null;
  const title = step.title || step.url || "";
  return (
    <div data-testid="browser-step" className="space-y-1.5 text-[12px]">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="rounded bg-zinc-100 px-1 font-mono text-[11px] text-zinc-700" data-testid="browser-action">{step.action}</span>
        <a href={step.url} target="_blank" rel="noopener noreferrer nofollow" className="min-w-0 truncate font-mono text-[11px] text-klein hover:underline" data-testid="browser-url">{step.url}</a>
        {step.url?.startsWith("http") && <SaveToKnowledge url={step.url} />}
      </div>
      {!block.ok && <pre className="whitespace-pre-wrap text-[11px] text-red-700">{output.split("\n")[0]}</pre>}
      {src && shot && (
        <button type="button" data-testid="browser-screenshot" className="block overflow-hidden rounded border border-zinc-200" aria-label={t("browser.openScreenshot", { title })} onClick={() => actions?.openScreenshot(src, title)}>
          <img src={src} alt={t("browser.screenshotOf", { title })} width={shot.width} height={shot.height} className="h-auto max-h-64 w-auto max-w-full" loading="lazy" />
        </button>
      )}
      {(step.notes ?? []).length > 0 && (
        <ul data-testid="browser-notes" className="list-disc pl-4 text-[11px] text-amber-800">
          {step.notes!.map((note) => <li key={note}>{note}</li>)}
        </ul>
      )}
      {outline !== null && (
        <details data-testid="browser-outline">
          <summary className="cursor-pointer text-[11px] text-zinc-500">
            {t("browser.outline", { size: formatBytes(new TextEncoder().encode(outline).length), chars: outline.length })}
            {step.outline_cut ? ` · ${t("browser.outlineCut", { chars: step.outline_chars })}` : ""}
          </summary>
          <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap rounded bg-zinc-50 p-1.5 font-mono text-[11px] text-zinc-700">{outline}</pre>
        </details>
      )}
    </div>
  );
}

/** `browser`: the action and where; what came back is the step as above. */
export const browserView: ToolView = {
  icon: Globe,
  summary: (input) => [firstLine(input.action), firstLine(input.url) || firstLine(input.ref) || firstLine(input.text) || firstLine(input.key)].filter(Boolean).join(" "),
  // The screenshot is what the user follows the agent by: shown as each step ends.
  openWhenDone: () => true,
  Output: BrowserOutput,
};
