/**
 * Builds the system prompt the model receives: the user's own text, then the chosen
 * protocol's format instructions with the tool list (each tool's JSON Schema).
 */
import { getProtocol } from '../protocols/index'
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'

/**
 * The messages with the system prompt rebuilt for the tools actually offered (after routing),
 * so a text-format model is not shown tools it cannot call. Unchanged when the conversation does
 * not start with a system message. Pure.
 */
export function withOfferedTools(messages: readonly Message[], protocolId: string, tools: readonly ToolSpec[], base: string): Message[] {
  const [first, ...rest] = messages
  if (first?.role !== 'system') return [...messages]
  return [{ role: 'system', content: buildSystemPrompt(protocolId, tools, base) }, ...rest]
}

/** Returns the full system prompt text. An unknown protocol id yields the base text only. */
export function buildSystemPrompt(protocolId: string, tools: readonly ToolSpec[], base = ''): string {
  const protocol = getProtocol(protocolId)
  const parts = [base.trim(), protocol ? protocol.instructions(tools).trim() : ''].filter((p) => p.length > 0)
  return parts.join('\n\n')
}
