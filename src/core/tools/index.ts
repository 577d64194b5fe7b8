/** Public surface of core/tools: the tool definition the engine, the sandbox and the UI share. */
export { DEFAULT_TOOL_TIMEOUT_MS, toolSpecSchema, type JsonSchema, type ToolSpec } from './types'
