export * from "./chat-events.js";
export * from "./session-entries.js";
export type * from "./api.js";
