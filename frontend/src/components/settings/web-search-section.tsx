"use client";
import type { WebTestReply } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { Loader2, Search } from "lucide-react";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { keys, useWebStatus } from "@/lib/server-state";

/**
 * The web search provider (WEB.json, its key in KEY.md): what is in force, what is missing, and Test,
 * a search with it now, as Test connection tries a model.
 */
export function WebSearchSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data } = useWebStatus();
  const [query, setQuery] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<WebTestReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = data?.search;
  const test = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await api.testWebSearch(query.trim()));
      await queryClient.invalidateQueries({ queryKey: keys.webStatus });
    } catch (err) {
      setResult(null);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="space-y-2 border-t border-zinc-200 p-5" data-testid="web-search-section">
      <h3 className="flex items-center gap-1.5 text-sm font-semibold text-zinc-800">
        <Search className="size-4" /> {t("web.title")}
      </h3>
      {search?.provider ? (
        <p className="text-xs text-zinc-600" data-testid="web-provider">
          {t("web.provider", { provider: search.provider, url: search.url ?? "" })}
          {search.key_setting ? ` · ${search.key_set ? t("web.keySet", { setting: search.key_setting }) : t("web.keyMissing", { setting: search.key_setting })}` : ""}
        </p>
      ) : (
        <p className="text-xs leading-relaxed text-zinc-500" data-testid="web-none">
          <Trans i18nKey="web.none" components={{ code: <code /> }} />
        </p>
      )}
      {search?.problem && <p className="text-xs text-amber-700" data-testid="web-problem">{search.problem}</p>}
      {data?.browser && (
        <p className="text-xs text-zinc-600" data-testid="web-browser">
          {data.browser.available
            ? t("web.browser", { path: data.browser.executable ?? "", count: data.browser.sessions.length, mb: data.browser.memory_limit_mb })
            : t("web.browserMissing")}
        </p>
      )}
      {search?.provider && (
        <form
          className="flex gap-1.5"
          onSubmit={(event) => {
            event.preventDefault();
            if (query.trim()) void test();
          }}
        >
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t("web.queryPlaceholder")} aria-label={t("web.query")} data-testid="web-test-query" className="min-w-0 flex-1 rounded-md border border-zinc-300 px-2 py-1 text-sm" />
          <Button type="submit" variant="outline" size="sm" disabled={busy || !query.trim()} data-testid="web-test">
            {busy && <Loader2 className="animate-spin" />}
            {t("web.test")}
          </Button>
        </form>
      )}
      {error && <p className="text-xs text-red-700" data-testid="web-test-error">{error}</p>}
      {result && (
        <div data-testid="web-test-result" className="text-xs text-zinc-700">
          <p className="mb-1 text-zinc-500">{t("web.found", { count: result.results.length, ms: result.duration_ms })}</p>
          <ol className="list-decimal space-y-0.5 pl-4">
            {result.results.map((r) => (
              <li key={r.url}>
                <a href={r.url} target="_blank" rel="noopener noreferrer nofollow" className="text-klein hover:underline">{r.title || r.url}</a>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
