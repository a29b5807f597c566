/** Limits the API states, defined once: the route schemas and the backend's checks both read them. */

/** Characters in a path a request names (a file, a document); the server's cleaner says why past it. */
export const MAX_PATH_CHARS = 1_024;
/** Bytes in one file or folder name (the common file systems' own limit). */
export const NAME_MAX_BYTES = 255;
/** Characters in a session's title. */
export const MAX_TITLE_CHARS = 200;
/** Characters in a session search. */
export const MAX_SEARCH_CHARS = 200;
/** Characters in a knowledge search. */
export const MAX_KNOWLEDGE_QUERY_CHARS = 2_000;
/** Passages a knowledge search returns at most. */
export const MAX_KNOWLEDGE_RESULTS = 50;
/** Bytes of a session file `POST /api/sessions/import` takes. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
