/**
 * Provider request bodies from a conversation (OpenAI Chat, Anthropic Messages, Ollama) on their
 * own: exporting a session needs them, not the log importers `core/trace`'s index brings.
 */
export * from '../trace/export-messages'
