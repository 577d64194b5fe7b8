/**
 * `seed-oss`: ByteDance Seed-OSS-36B, as its chat template writes calls:
 * `<seed:tool_call><function=NAME><parameter=KEY>value</parameter>…</function></seed:tool_call>`,
 * with reasoning in `<seed:think>…</seed:think>` (budget reflections inside it) and `<seed:eos>`
 * ending the turn. Values are text; JSON objects and arrays are read as such.
 */
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'
import { collectTaggedCalls } from './shared/tags'

const MARKERS = defineMarkers('<seed:tool_call>')

/** `seed-oss` protocol. */
export const seedOss = defineTextProtocol({
  id: 'seed-oss',
  label: 'Seed-OSS tool_call',
  description: 'Seed-OSS: <seed:tool_call><function=name><parameter=key>value</parameter></function></seed:tool_call>; <seed:think> reasoning.',
  collect: collectTaggedCalls,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before, (_scan, at, marker) => ({ confidence: 0.95, ...detectionReason('detectFoundMarker', { marker, at }) })),
  rules: [
    'To call a tool, write <seed:tool_call>, then <function=<tool name>>, one <parameter=<key>>value</parameter> per argument, </function> and </seed:tool_call>.',
    'Write several <seed:tool_call> blocks to call several tools.',
  ],
  renderCall: (name, args) =>
    `<seed:tool_call>\n<function=${name}>\n${Object.entries(args)
      .map(([key, value]) => `<parameter=${key}>${typeof value === 'string' ? value : JSON.stringify(value)}</parameter>\n`)
      .join('')}</function>\n</seed:tool_call>`,
  example: '<seed:think>The user asks for the weather in Paris; I will call the tool.</seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>',
})
