/**
 * How a live run of a workspace begins; shared by the playground and `toolstep run`
 * so both produce the same session for the same workspace.
 */
import type { ToolSpec } from '../tools/types'
import type { RunInit } from './runner'
import type { SettingsInput } from './settings'
import { buildSystemPrompt } from './system-prompt'

/** The `RunInit` for a workspace whose tools.ts declared `tools`: system prompt, then the user input. */
export function runInitFor(workspace: { settings: SettingsInput; input: string }, tools: ToolSpec[], maxSteps?: number): RunInit {
  const { protocol, systemPrompt } = workspace.settings
  return {
    protocol,
    tools,
    maxSteps: maxSteps ?? workspace.settings.maxSteps,
    ...(workspace.settings.loop ? { settings: workspace.settings.loop } : {}),
    systemPromptBase: systemPrompt,
    messages: [
      { role: 'system', content: buildSystemPrompt(protocol, tools, systemPrompt) },
      { role: 'user', content: workspace.input },
    ],
  }
}
