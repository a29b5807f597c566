/** Where a model or embeddings request goes when no base URL is set: OpenAI's own API. */
export const OPENAI_ENDPOINT = "https://api.openai.com/v1";

/** The base URL a request goes to: the one set, or OpenAI's. */
export const endpointOf = (baseUrl: string | null | undefined): string => baseUrl?.trim() || OPENAI_ENDPOINT;
