/**
 * `bracket`: `[TOOL: name] [ARGS: {…}]`, from the hand-written tool-use designs; `[ARGS]` may be
 * on the next line or missing (no arguments).
 */
import { defineTextProtocol } from './shared/define'
import { collectToolBrackets, detectToolBrackets } from './shared/tool-brackets'

/** `bracket` protocol: `[TOOL: name] [ARGS: {json}]`. */
export const bracket = defineTextProtocol({
  id: 'bracket',
  label: 'Bracket [TOOL:] [ARGS:]',
  description: '[TOOL: name] [ARGS: {…}] markers with JSON arguments; [ARGS] optional.',
  collect: collectToolBrackets,
  detect: (raw, before) => detectToolBrackets(raw, before, 'bracket'),
  rules: [
    'To call a tool, write [TOOL: <tool name>] followed by [ARGS: {<arguments as JSON>}].',
    'Write one pair per call; leave out [ARGS: …] for a tool without arguments.',
    'Then stop and wait for the result.',
  ],
  renderCall: (name, args) => `[TOOL: ${name}] [ARGS: ${JSON.stringify(args)}]`,
  example: '[TOOL: get_weather] [ARGS: {"city": "Paris"}]',
})
