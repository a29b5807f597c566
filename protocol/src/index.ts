export type * from "./chat-events.js";
export type * from "./api.js";
export type * from "./session-entries.js";
