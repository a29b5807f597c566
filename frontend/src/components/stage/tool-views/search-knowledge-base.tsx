import { Search } from "lucide-react";
import { firstLine, type ToolView } from "./tool-view";

/** `search_knowledge_base`: the question asked of the user's documents. */
export const searchKnowledgeBaseView: ToolView = {
  icon: Search,
  summary: (input) => firstLine(input.query),
};
