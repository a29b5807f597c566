import { Globe } from "lucide-react";
import { firstLine, type ToolView } from "./tool-view";

/** `fetch_url`: the URL. */
export const fetchUrlView: ToolView = {
  icon: Globe,
  summary: (input) => firstLine(input.url),
};
