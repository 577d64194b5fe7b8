/**
 * `glm45`: GLM-4.5 / 4.6, `<tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>…</tool_call>`.
 * Values are text; JSON objects and arrays are read as such.
 */
import { defineTextProtocol } from './shared/define'
import { collectTaggedCalls, detectTags } from './shared/tags'

/** `glm45` protocol: `<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value></tool_call>`. */
export const glm45 = defineTextProtocol({
  id: 'glm45',
  label: 'GLM-4.5 arg_key/arg_value',
  description: 'GLM-4.5: <tool_call>name then <arg_key>/<arg_value> pairs.',
  collect: collectTaggedCalls,
  detect: (raw, before) => detectTags(raw, before, 'detectTagArgPairs', { 'arg-pairs': 0.9 }),
  rules: ['To call a tool, write <tool_call><tool name>, then per argument <arg_key>key</arg_key> and <arg_value>value</arg_value> on their own lines, then </tool_call>.'],
  renderCall: (name, args) =>
    `<tool_call>${name}\n${Object.entries(args)
      .map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${typeof value === 'string' ? value : JSON.stringify(value)}</arg_value>\n`)
      .join('')}</tool_call>`,
  example: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>',
})
