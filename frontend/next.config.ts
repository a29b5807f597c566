import type { NextConfig } from "next";

// The workbench sends nothing anywhere but to the model the user sets up: Next.js's usage telemetry (and its notice in
// the build's output) is off. Read by `next build` and `next dev` after this file loads.
process.env.NEXT_TELEMETRY_DISABLED = "1";

const backend = process.env.BACKEND_URL ?? "http://127.0.0.1:8002";
const dev = process.env.NODE_ENV === "development";

/**
 * Built as static files that the backend serves on its own origin. In `next dev` (hot reload)
 * the API is proxied to the backend instead, so the browser still talks to one origin.
 */
const shared: NextConfig = { transpilePackages: ["@mini-openclaw/protocol"] };
const config: NextConfig = dev
  ? { ...shared, async rewrites() { return [{ source: "/api/:path*", destination: `${backend}/api/:path*` }]; } }
  : { ...shared, output: "export", images: { unoptimized: true } };

export default config;
