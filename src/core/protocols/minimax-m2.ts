/**
 * `minimax-m2`: MiniMax-M2's tool calls, as its chat template and tool-calling guide write them:
 * `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">value</parameter>…</invoke></minimax:tool_call>`,
 * several `<invoke>` per block for parallel calls, reasoning in `<think>…</think>` before the
 * answer (interleaved thinking). Values are text; JSON objects and arrays are read as such.
 */
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'
import { collectInvokeCalls, renderInvokeCalls, type InvokeSyntax } from './shared/invoke-xml'

const SYNTAX: InvokeSyntax = {
  blockOpen: '<minimax:tool_call>',
  blockClose: '</minimax:tool_call>',
  invoke: '<invoke',
  invokeClose: '</invoke>',
  parameter: '<parameter',
  parameterClose: '</parameter>',
  typedParameters: false,
}
const MARKERS = defineMarkers(SYNTAX.blockOpen)

/** `minimax-m2` protocol. */
export const minimaxM2 = defineTextProtocol({
  id: 'minimax-m2',
  label: 'MiniMax M2 XML',
  description: 'MiniMax-M2: <minimax:tool_call> holding <invoke name="…"> with <parameter name="…"> values; <think> reasoning.',
  collect: (builder) => collectInvokeCalls(builder, SYNTAX),
  detect: (raw, before) => detectMarkers(raw, MARKERS, before, (_scan, at, marker) => ({ confidence: 0.95, ...detectionReason('detectFoundMarker', { marker, at }) })),
  rules: [
    'To call tools, write <minimax:tool_call>, then for each call <invoke name="<tool name>"> with one <parameter name="<key>">value</parameter> per argument and </invoke>, then </minimax:tool_call>.',
    'Write objects and arrays as JSON inside <parameter>.',
  ],
  renderCall: (name, args) => renderInvokeCalls(SYNTAX, [{ name, arguments: args }]),
  example: '<think>\nThe user wants the weather in Paris.\n</think>\n\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>',
})
