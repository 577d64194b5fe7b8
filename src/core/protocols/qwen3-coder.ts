/**
 * `qwen3-coder`: Qwen3-Coder's XML parameters,
 * `<tool_call><function=NAME><parameter=KEY>value</parameter>…</function></tool_call>`. Values are
 * text with exactly one line break stripped at each end; JSON objects and arrays are read as such.
 */
import { defineTextProtocol } from './shared/define'
import { collectTaggedCalls, detectTags } from './shared/tags'

/** `qwen3-coder` protocol: `<function=NAME><parameter=KEY>value</parameter></function>` inside `<tool_call>`. */
export const qwen3Coder = defineTextProtocol({
  id: 'qwen3-coder',
  label: 'Qwen3-Coder XML',
  description: 'Qwen3-Coder: <tool_call><function=name><parameter=key>value</parameter></function></tool_call>.',
  collect: collectTaggedCalls,
  detect: (raw, before) => detectTags(raw, before, 'detectTagFunction', { 'function-parameters': 0.9 }),
  rules: [
    'To call a tool, write <tool_call>, then <function=<tool name>>, one <parameter=<key>> … </parameter> per argument (the value on its own lines), </function> and </tool_call>.',
    'Write several <tool_call> blocks to call several tools.',
  ],
  renderCall: (name, args) =>
    `<tool_call>\n<function=${name}>\n${Object.entries(args)
      .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>\n`)
      .join('')}</function>\n</tool_call>`,
  example: '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>',
})
