"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Workbench } from "@/components/workbench/workbench";
import { LanguageProvider } from "@/i18n/language-provider";
import { newQueryClient } from "@/lib/server-state";
import { ThemeProvider } from "@/lib/theme";

export default function Page() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageProvider>
        <ThemeProvider>
          <Workbench />
        </ThemeProvider>
      </LanguageProvider>
    </QueryClientProvider>
  );
}
