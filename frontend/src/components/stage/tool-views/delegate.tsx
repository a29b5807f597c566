import { Users } from "lucide-react";
import { firstLine, type ToolView } from "./tool-view";

/** `delegate`: who was asked what; the card shows the sub-agent's trace, its input and answer stay one click away. */
export const delegateView: ToolView = {
  icon: Users,
  summary: (input) => `${firstLine(input.agent)}: ${firstLine(input.task)}`,
  openWhenDone: (block) => block.ok === false,
};
