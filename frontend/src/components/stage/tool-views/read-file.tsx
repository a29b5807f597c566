import { FileText } from "lucide-react";
import { firstLine, type ToolView } from "./tool-view";

/** `read_file`: the path; the file's text stays folded (it can be long, and the agent reads it, not the user). */
export const readFileView: ToolView = {
  icon: FileText,
  summary: (input) => firstLine(input.path),
  openWhenDone: (block) => block.ok === false,
};
