/** The agent's long-term memory file (user-editable), beside the daily logs (daily-log.ts). */
export const MEMORY_FILE = "memory/MEMORY.md";
