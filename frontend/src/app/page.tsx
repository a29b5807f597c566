"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Workbench } from "@/components/workbench";
import { newQueryClient } from "@/lib/server-state";
import { ThemeProvider } from "@/lib/theme";

export default function Page() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <Workbench />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
