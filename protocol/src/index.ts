export type * from "./chat-events.js";
export type * from "./api.js";
