export * from "./builtin-tools.js";
export * from "./chat-events.js";
export * from "./session-entries.js";
export * from "./task-runs.js";
export * from "./api.js";
