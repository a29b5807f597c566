"use client";
import type { McpServerStatus } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { FileCog, Loader2, Plug, RotateCw, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { keys, useMcp } from "@/lib/server-state";
import { WarningLine } from "@/components/ui/problem-card";
import { Trans, useTranslation } from "react-i18next";

const STATE_BADGE: Record<McpServerStatus["state"], "success" | "warning" | "danger" | "muted"> = {
  connected: "success",
  connecting: "warning",
  failed: "danger",
  disabled: "muted",
};

/** A new MCP.json: Claude Code's and Cursor's shape, with no servers yet. */
const EMPTY_MCP_FILE = `${JSON.stringify({ mcpServers: {} }, null, 2)}\n`;

/** The MCP servers of MCP.json: each one's state, tools, prompts and what went wrong, with Restart. */
export function McpView({ onOpenFile }: { onOpenFile: (path: string) => void }) {
  // A server's state moves on its own (start-up, restarts): the server says so, and this reads again.
  const { t } = useTranslation();
  const { data: reply, error: loadError } = useMcp();
  const queryClient = useQueryClient();
  const [restarting, setRestarting] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const error = actionError ?? loadError?.message;

  const restart = async (name: string) => {
    setRestarting(name);
    try {
      await api.restartMcp(name);
      await queryClient.invalidateQueries({ queryKey: keys.mcp });
    } catch (err) {
      setActionError((err as Error).message);
    } finally {
      setRestarting(null);
    }
  };

  if (error) return <div className="p-2 text-xs text-red-700">{error}</div>;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">{t("mcp.loading")}</div>;
  return (
    <div className="space-y-3" data-testid="mcp-view">
      <div className="flex items-center justify-between px-1">
        <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("mcp.title", { count: reply.servers.length })}</h3>
        <Button
          variant="ghost"
          size="sm"
          onClick={() =>
            // Create makes the file first (an empty server list), so the Inspector opens a file that is there.
            void (reply.file.exists ? Promise.resolve() : api.saveFile(reply.file.path, EMPTY_MCP_FILE)).then(
              () => onOpenFile(reply.file.path),
              (err: Error) => setActionError(err.message),
            )
          }
          data-testid="edit-mcp"
        >
          <FileCog /> {reply.file.exists ? t("common.editFile", { file: "MCP.json" }) : t("common.createFile", { file: "MCP.json" })}
        </Button>
      </div>
      {reply.file.problem && <WarningLine text={reply.file.problem} testId="mcp-file-problem" />}
      {reply.problems.map((p) => (
        <WarningLine key={p.name ?? ""} text={`${p.name ?? "MCP.json"}: ${p.reason}`} testId="mcp-entry-problem" />
      ))}
      {reply.servers.length === 0 && !reply.file.problem && (
        <p className="px-1 text-xs leading-relaxed text-zinc-500" data-testid="mcp-empty">
          <Trans i18nKey="mcp.empty" components={{ code: <code /> }} />
        </p>
      )}
      {reply.servers.map((server) => (
        <ServerCard key={server.name} server={server} restarting={restarting === server.name} onRestart={() => void restart(server.name)} />
      ))}
    </div>
  );
}

function ServerCard({ server, restarting, onRestart }: { server: McpServerStatus; restarting: boolean; onRestart: () => void }) {
  const { t } = useTranslation();
  const offered = server.tools.filter((tool) => tool.exposed_as !== null);
  return (
    <section className="rounded-lg border border-zinc-200 px-2.5 py-2 text-xs" data-testid="mcp-server" data-server={server.name} data-state={server.state}>
      <div className="flex items-center gap-1.5">
        <Plug className="size-3.5 shrink-0 text-klein" />
        {/* The name wraps rather than being cut: it is what the user typed in MCP.json and looks for. */}
        <span className="min-w-0 flex-1 font-mono text-[13px] font-semibold break-all text-zinc-800" data-testid="mcp-name">
          {server.name}
        </span>
        <Badge variant={STATE_BADGE[server.state]} data-testid="mcp-state" data-state={server.state} className="shrink-0">
          {server.state === "connecting" && <Loader2 className="animate-spin" />}
          {t(`mcp.state.${server.state}`)}
        </Badge>
        <Button variant="ghost" size="sm" className="shrink-0" onClick={onRestart} disabled={restarting || server.state === "disabled"} aria-label={t("mcp.restartName", { name: server.name })} data-tip={t("mcp.restart")} data-testid="mcp-restart">
          <RotateCw className={restarting ? "animate-spin" : undefined} />
        </Button>
      </div>
      <div className="mt-0.5 truncate font-mono text-[11px] text-zinc-500" data-tip={server.target}>
        {server.transport} · {server.target}
      </div>
      {server.reason && (
        <div className="mt-1 flex gap-1 text-[11px] text-red-700" data-testid="mcp-reason">
          <TriangleAlert className="mt-px size-3 shrink-0" />
          {server.reason}
        </div>
      )}
      {server.warnings.map((w) => (
        <WarningLine key={w} text={w} />
      ))}
      <div className="mt-1 text-[11px] text-zinc-500">
        {t("mcp.tools", { count: offered.length })}
        {server.prompts.length > 0 && ` · ${t("mcp.prompts", { count: server.prompts.length })}`}
        {server.resources && ` · ${t("mcp.resources")}`}
        {server.restarts > 0 && ` · ${t("mcp.restarts", { count: server.restarts })}`}
      </div>
      {server.tools.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-[11px] text-klein">{t("mcp.toolsTitle")}</summary>
          <ul className="mt-1 space-y-1" data-testid="mcp-tools">
            {server.tools.map((tool) => (
              <li key={tool.name} data-testid="mcp-tool">
                <div className="flex items-center gap-1 font-mono text-[11px] text-zinc-800">
                  {tool.exposed_as ?? tool.name}
                  {tool.read_only && <Badge variant="muted">{t("mcp.readOnly")}</Badge>}
                </div>
                {tool.problem ? <div className="text-[11px] text-amber-700">{t("mcp.leftOut", { detail: tool.problem })}</div> : <div className="line-clamp-2 text-[11px] text-zinc-500">{tool.description}</div>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.prompts.length > 0 && (
        <div className="mt-1 text-[11px] text-zinc-500">
          {t("mcp.promptsLabel")} {server.prompts.map((p) => <code key={p.name} className="mr-1">{`/mcp__${server.name}__${p.name}`}</code>)}
        </div>
      )}
      {server.stderr.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-[11px] text-zinc-500">{t("mcp.stderr", { count: server.stderr.length })}</summary>
          <pre className="mt-1 max-h-40 overflow-auto rounded bg-zinc-50 p-1.5 text-[10px] whitespace-pre-wrap text-zinc-700" data-testid="mcp-stderr">
            {server.stderr.join("\n")}
          </pre>
        </details>
      )}
    </section>
  );
}
