import { type WebSearchResult, webSearchResultSchema } from "@mini-openclaw/protocol";
import { Search } from "lucide-react";
import { firstLine, type ToolView } from "./tool-view";

const resultsSchema = webSearchResultSchema.array();

/** The results a search call found, from its details (a stored session from before is read as text). */
function resultsOf(details: Record<string, unknown> | undefined): WebSearchResult[] | null {
  const parsed = resultsSchema.safeParse(details?.results);
  return parsed.success ? parsed.data : null;
}

/** `web_search`: the query; its results as links (they open in a new tab, away from the workbench). */
export const webSearchView: ToolView = {
  icon: Search,
  summary: (input) => firstLine(input.query),
  // The results are what the call is for: shown once they are in.
  openWhenDone: (block) => block.ok === true,
  Output: ({ block }) => {
    const results = block.ok ? resultsOf(block.details) : null;
    if (!results) return null;
    return (
      <ol data-testid="search-results" className="space-y-1.5">
        {results.map((r) => (
          <li key={r.url} className="text-[12px] leading-snug">
            <a href={r.url} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-klein hover:underline" data-testid="search-result-link">
              {r.title || r.url}
            </a>
            <div className="truncate font-mono text-[11px] text-zinc-500">{r.url}{r.published ? ` · ${r.published}` : ""}</div>
            {r.snippet && <div className="text-zinc-700">{r.snippet}</div>}
          </li>
        ))}
      </ol>
    );
  },
};
