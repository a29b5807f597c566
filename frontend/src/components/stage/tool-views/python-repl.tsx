import { Braces } from "lucide-react";
import { CodeInput, firstLine, type ToolView } from "./tool-view";

/** `python_repl`: the code, as a program. */
export const pythonReplView: ToolView = {
  icon: Braces,
  summary: (input) => firstLine(input.code),
  Input: ({ input }) => <CodeInput prompt=">>> " text={String(input.code ?? "")} />,
};
