import { Wrench } from "lucide-react";
import type { ToolView } from "./tool-view";

/** Any other tool: its first string argument, or the JSON. */
export const genericView: ToolView = {
  icon: Wrench,
  summary: (input) => {
    const first = Object.values(input)[0];
    return typeof first === "string" ? first.split("\n")[0] : JSON.stringify(input);
  },
};
