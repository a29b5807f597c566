import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

// No title here: the Workbench renders the page's title, which counts the calls waiting for approval.
export const metadata: Metadata = {
  description: "A local, transparent AI agent workbench",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
