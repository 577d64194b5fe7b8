/**
 * `pipe`: `[TOOL:name|key=value|key2=value2]`, from the hand-written tool-use designs. Values are
 * untyped text (kept as strings); a value may hold `=`, parentheses and operators.
 */
import type { JsonValue } from '../messages'
import { defineTextProtocol } from './shared/define'
import { collectToolBrackets, detectToolBrackets } from './shared/tool-brackets'

function pipeValue(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null)
}

/** `pipe` protocol: `[TOOL:name|key=value|…]`. */
export const pipe = defineTextProtocol({
  id: 'pipe',
  label: 'Pipe [TOOL:name|k=v]',
  description: '[TOOL:name|key=value|…] with untyped string values.',
  collect: collectToolBrackets,
  detect: (raw, before) => detectToolBrackets(raw, before, 'pipe'),
  rules: [
    'To call a tool, write [TOOL:<tool name>|<key>=<value>|<key>=<value>] on its own line.',
    'Values are plain text without | or ]; do not quote them.',
    'Then stop and wait for the result.',
  ],
  renderCall: (name, args) => `[TOOL:${[name, ...Object.entries(args).map(([key, value]) => `${key}=${pipeValue(value)}`)].join('|')}]`,
  example: '[TOOL:calculate|expression=3*(2+1)]',
})
