/**
 * A workspace whose tool matches the recorded OpenAI captures (`get_current_weather` with a
 * `location`), so a run against the test chat server goes capture by capture. Test-only.
 */
import { writeWorkspace } from '../core/files/workspace-file'

/** tools.ts: the captures' one tool, answering as the recorded session's results did. */
export const CAPTURE_TOOLS = `import { tool } from 'toolstep'
import { z } from 'zod'

export const get_current_weather = tool({
  description: 'Get the current weather in a given location',
  inputSchema: z.object({ location: z.string().describe('The city and state, e.g. Boston, MA') }),
  execute: ({ location }) => (location.startsWith('Seattle') ? '50 degrees and raining' : '70 degrees and sunny'),
})
`

/** The question of the recorded session. */
export const CAPTURE_INPUT = "What's the weather in Seattle and San Francisco today?"

/** The final answer of the recorded session (openai-chat-parallel-tools.2.response.json). */
export const CAPTURE_ANSWER = "Today, the weather in Seattle is 50 degrees and raining, while in San Francisco, it's 70 degrees and sunny."

/** The workspace file text, with a mock model.ts that fails if it is ever asked. */
export function captureWorkspace(protocol = 'openai'): string {
  return writeWorkspace({
    tools: CAPTURE_TOOLS,
    model: "export default function model() {\n  throw new Error('The mock model was asked; the endpoint should answer.')\n}\n",
    input: CAPTURE_INPUT,
    settings: { protocol, maxSteps: 4, systemPrompt: "You're a helpful assistant." },
  })
}
