import type { NextConfig } from "next";

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
