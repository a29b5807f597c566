import { SquareTerminal } from "lucide-react";
import { CodeInput, firstLine, type ToolView } from "./tool-view";

/** `terminal`: the command, as a shell line. */
export const terminalView: ToolView = {
  icon: SquareTerminal,
  summary: (input) => firstLine(input.command),
  Input: ({ input }) => <CodeInput prompt="$ " text={String(input.command ?? "")} />,
};
