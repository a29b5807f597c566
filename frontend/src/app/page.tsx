import { Workbench } from "@/components/workbench";
import { ThemeProvider } from "@/lib/theme";

export default function Page() {
  return (
    <ThemeProvider>
      <Workbench />
    </ThemeProvider>
  );
}
