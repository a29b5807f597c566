import { browserView } from "./browser";
import { delegateView } from "./delegate";
import { fetchUrlView } from "./fetch-url";
import { genericView } from "./generic";
import { pythonReplView } from "./python-repl";
import { readFileView } from "./read-file";
import { searchKnowledgeBaseView } from "./search-knowledge-base";
import { terminalView } from "./terminal";
import type { ToolView } from "./tool-view";
import { webSearchView } from "./web-search";

const VIEWS: Record<string, ToolView> = {
  read_file: readFileView,
  terminal: terminalView,
  python_repl: pythonReplView,
  fetch_url: fetchUrlView,
  web_search: webSearchView,
  browser: browserView,
  search_knowledge_base: searchKnowledgeBaseView,
  delegate: delegateView,
};

/** The view of a tool's card, by the tool's name. */
export function toolView(name: string): ToolView {
  return VIEWS[name] ?? genericView;
}
