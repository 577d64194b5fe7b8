import { describe, expect, it } from 'vitest'
import { LOOP_TEXT, type SessionEvent } from '../../core/loop'
import { VALIDATION_TEXT } from '../../core/catalogue'
import { validateArguments } from '../../core/validation'
import { renderPhrase } from '../../core/util'
import { STORE_TEXT } from '../../store/messages'
import { narrationText } from '../narration/text'
import { createI18n, resources } from './index'

type Tree = { [key: string]: string | Tree }
const values = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : values(value, `${prefix}${key}.`)))

const en = createI18n('en').t
const replay = (messages: number): SessionEvent[] => [
  { seq: 0, at: 0, type: 'session.started', source: 'replay', protocol: 'openai', tools: [], messages: Array.from({ length: messages }, () => ({ role: 'user', content: 'hi' })), maxSteps: 1 } as SessionEvent,
]

describe('English counts read right for one and for many', () => {
  it('UI strings: 1 message, 2 messages', () => {
    expect(en('inspector.modelContext', { count: 1 })).toBe('Model context (1 message)')
    expect(en('inspector.modelContext', { count: 2 })).toBe('Model context (2 messages)')
    expect(en('replay.messages', { count: 1 })).toBe('(1 message)')
    expect(en('results.injectionFlags', { count: 1 })).toBe('1 injection flag')
    expect(en('challenge.problem.failedCalls', { count: 1, name: 'f', error: 'boom' })).toBe('1 tool call failed, f: boom')
    expect(en('challenge.problem.failedCalls', { count: 2, name: 'f', error: 'boom' })).toBe('2 tool calls failed, first f: boom')
  })

  it('narration passes the count: a replay of 1 message and of 2 messages', () => {
    expect(narrationText(en, replay(1), 0)).toBe('A logged conversation opens with 1 message; each turn is replayed through the same phases.')
    expect(narrationText(en, replay(2), 0)).toBe('A logged conversation opens with 2 messages; each turn is replayed through the same phases.')
  })

  it("core's English catalogues, in the CLI and in the UI alike", () => {
    expect(renderPhrase({ key: 'openedSession', params: { file: 's.json', count: 1 } }, STORE_TEXT)).toBe('Opened session s.json (1 event).')
    expect(en('core.store.openedSession', { file: 's.json', count: 2 })).toBe('Opened session s.json (2 events).')
    expect(renderPhrase({ key: 'maxSteps', params: { steps: 1, count: 1 } }, LOOP_TEXT)).toBe('Stopped after 1 model turn without a final answer.')
    const spec = { name: 'search', description: '', inputSchema: { type: 'object', properties: { q: { type: 'string', minLength: 1 } } } }
    expect(validateArguments(spec, { q: '' })).toEqual([expect.stringContaining('must be at least 1 character long')])
    expect(renderPhrase({ key: 'minItems', params: { subject: 'tags', limit: '1', count: 1 } }, VALIDATION_TEXT)).toBe('tags must have at least 1 item')
    expect(en('core.validation.minLength', { subject: 'q', limit: '2', count: 2 })).toBe('q must be at least 2 characters long')
  })

  it('no English text hedges with "(s)"', () => {
    const hedged = values(resources.en.translation as unknown as Tree).filter(([, text]) => /\w\(s\)/.test(text) || text.includes('(s)'))
    expect(hedged).toEqual([])
  })

  it('Chinese keeps one form: both plural keys say the same', () => {
    const zh = createI18n('zh-CN').t
    expect(zh('inspector.modelContext', { count: 1 })).toBe(zh('inspector.modelContext', { count: 2 }).replace('2', '1'))
  })
})
