/** Where each popular OpenAI-compatible server listens by default, and a model name to start from (from each one's docs). */
export interface ModelPreset {
  name: string;
  baseUrl: string;
  model: string;
  /** Local servers take no key. */
  needsKey: boolean;
}

export const MODEL_PRESETS: ModelPreset[] = [
  { name: "OpenAI", baseUrl: "", model: "gpt-4o-mini", needsKey: true },
  { name: "Ollama", baseUrl: "http://localhost:11434/v1", model: "qwen3", needsKey: false },
  { name: "vLLM", baseUrl: "http://localhost:8000/v1", model: "", needsKey: false },
  { name: "LM Studio", baseUrl: "http://localhost:1234/v1", model: "", needsKey: false },
  { name: "llama.cpp", baseUrl: "http://localhost:8080/v1", model: "", needsKey: false },
  { name: "DeepSeek", baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat", needsKey: true },
  { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", model: "openai/gpt-4o-mini", needsKey: true },
];

/** What an empty base URL means. */
export const OPENAI_URL = "https://api.openai.com/v1";
/** Examples in the fields (values, not words to translate). */
export const CUSTOM_URL_EXAMPLE = "https://llm.example.com/v1";
export const EMBEDDING_MODEL_EXAMPLE = "text-embedding-3-small";
export const PROFILE_NAME_EXAMPLE = "local";

/** What a profile can be marked as taking, in the order the form shows them. */
export const CAPABILITIES = ["tools", "vision", "reasoning"] as const;
