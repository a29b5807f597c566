/**
 * Which user owns the other end of a loopback connection, from the kernel's socket table
 * (/proc/net/tcp and tcp6: the client's socket is the line whose local port is the request's remote
 * port and whose remote port is ours). Used to refuse requests that tool processes make to the
 * workbench itself when they share the host's network (SANDBOX_NETWORK=on).
 */
import { readFile } from "node:fs/promises";

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");

export async function loopbackPeerUid(remotePort: number, localPort: number): Promise<number | null> {
  const local = `:${hexPort(remotePort)}`;
  const remote = `:${hexPort(localPort)}`;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 7 && fields[1].endsWith(local) && fields[2].endsWith(remote)) return Number(fields[7]);
    }
  }
  return null;
}
