/**
 * Builds the system prompt the model receives: the user's own text, then the chosen
 * protocol's format instructions with the tool list (each tool's JSON Schema).
 */
import { getProtocol } from '../protocols/index'
import type { ToolSpec } from '../tools/types'

/** Returns the full system prompt text. An unknown protocol id yields the base text only. */
export function buildSystemPrompt(protocolId: string, tools: readonly ToolSpec[], base = ''): string {
  const protocol = getProtocol(protocolId)
  const parts = [base.trim(), protocol ? protocol.instructions(tools).trim() : ''].filter((p) => p.length > 0)
  return parts.join('\n\n')
}
