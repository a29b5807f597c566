/** The JSON API (PRODUCT.md section 7): its shapes and operations, by route group (api/). */
export * from "./api/index.js";
