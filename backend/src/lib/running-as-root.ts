/** Whether this process runs as root: then tools drop to an unprivileged user and files are handed to it. */
export const runningAsRoot = typeof process.getuid === "function" && process.getuid() === 0;
