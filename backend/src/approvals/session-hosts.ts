/**
 * The hosts a person let the browser visit in each session, while the workbench runs: the browser
 * asks before its first visit to a host in a session, not before every page there. A restart
 * forgets them (the next first visit asks again).
 */
export class SessionHosts {
  private readonly hosts = new Map<string, Set<string>>();

  known(sessionId: string, host: string): boolean {
    return this.hosts.get(sessionId)?.has(host) ?? false;
  }

  remember(sessionId: string, host: string): void {
    const set = this.hosts.get(sessionId) ?? new Set<string>();
    set.add(host);
    this.hosts.set(sessionId, set);
  }

  forget(sessionId: string): void {
    this.hosts.delete(sessionId);
  }
}
