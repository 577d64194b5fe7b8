/**
 * `deepseek-dsml`: DeepSeek-V3.2's DSML tool calls (its `encoding_dsv32.py` reference encoder),
 * `<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="true|false">value</｜DSML｜parameter>…</｜DSML｜invoke></｜DSML｜function_calls>`
 * (fullwidth bars). `string="true"` values are text verbatim; `string="false"` values are JSON
 * (numbers, booleans, objects, arrays). Thinking mode puts reasoning in `<think>…</think>`.
 */
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'
import { collectInvokeCalls, renderInvokeCalls, type InvokeSyntax } from './shared/invoke-xml'

const DSML = '｜DSML｜'
const SYNTAX: InvokeSyntax = {
  blockOpen: `<${DSML}function_calls>`,
  blockClose: `</${DSML}function_calls>`,
  invoke: `<${DSML}invoke`,
  invokeClose: `</${DSML}invoke>`,
  parameter: `<${DSML}parameter`,
  parameterClose: `</${DSML}parameter>`,
  typedParameters: true,
}
const MARKERS = defineMarkers(SYNTAX.blockOpen)

/** `deepseek-dsml` protocol. */
export const deepseekDsml = defineTextProtocol({
  id: 'deepseek-dsml',
  label: 'DeepSeek V3.2 DSML',
  description: 'DeepSeek-V3.2: <｜DSML｜function_calls> with <｜DSML｜invoke name="…"> and typed <｜DSML｜parameter … string="true|false">.',
  collect: (builder) => collectInvokeCalls(builder, SYNTAX),
  detect: (raw, before) => detectMarkers(raw, MARKERS, before, (_scan, at, marker) => ({ confidence: 0.95, ...detectionReason('detectFoundMarker', { marker, at }) })),
  rules: [
    `To call tools, write ${SYNTAX.blockOpen}, then for each call ${SYNTAX.invoke} name="<tool name>"> with one ${SYNTAX.parameter} name="<key>" string="true|false">value${SYNTAX.parameterClose} per argument and ${SYNTAX.invokeClose}, then ${SYNTAX.blockClose}.`,
    'Use string="true" for text values (written as they are) and string="false" for numbers, booleans, objects and arrays (written as JSON).',
  ],
  renderCall: (name, args) => renderInvokeCalls(SYNTAX, [{ name, arguments: args }]),
  example: `${SYNTAX.blockOpen}\n${SYNTAX.invoke} name="get_weather">\n${SYNTAX.parameter} name="city" string="true">Paris${SYNTAX.parameterClose}\n${SYNTAX.parameter} name="days" string="false">3${SYNTAX.parameterClose}\n${SYNTAX.invokeClose}\n${SYNTAX.blockClose}`,
})
