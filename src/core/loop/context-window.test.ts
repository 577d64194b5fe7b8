import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import { answer, calls, result, user } from '../../test/conversation'
import { findAnomalies } from '../trace/anomalies'
import { pairedEarliest, safeTrimStart, windowMessages } from './context-window'

const system: Message = { role: 'system', content: 'sys' }

describe('windowMessages', () => {
  it('keeps the system prompt and the last N messages when the cut falls between turns', () => {
    const messages = [system, user('a'), answer('b'), user('c'), answer('d')]
    expect(windowMessages(messages, 2)).toMatchObject({ head: 1, from: 3, messages: [system, user('c'), answer('d')] })
    expect(windowMessages(messages, 0).messages).toEqual(messages)
  })

  it('never starts on a result whose call is cut away', () => {
    const messages = [system, user('go'), calls(['f', 'a'], ['g', 'b']), result('a', 'f'), result('b', 'g'), answer('done')]
    expect(windowMessages(messages, 3).messages).toEqual([system, answer('done')])
    expect(windowMessages(messages, 4).messages).toEqual([system, calls(['f', 'a'], ['g', 'b']), result('a', 'f'), result('b', 'g'), answer('done')])
  })

  it('never keeps a result past its first message whose call is cut away (a user turn between the results)', () => {
    const messages = [system, user('go'), calls(['f', 'a'], ['g', 'b']), result('a', 'f'), user('and?'), result('b', 'g'), answer('done')]
    // The last 3 start at "and?", which is no result, but the result for b after it lost its call.
    const window = windowMessages(messages, 3)
    expect(window.messages).toEqual([system, answer('done')])
    expect(window.from).toBe(6)
  })

  it('never keeps a call whose result was logged before it and cut away', () => {
    const messages = [system, user('go'), result('a', 'f'), calls(['f', 'a']), answer('done')]
    // Needs the whole conversation's pairing (the CLI and the anomaly pass it); the live window reads only the window.
    const earliest = pairedEarliest(messages)
    expect(windowMessages(messages, 2, earliest).messages).toEqual([system, answer('done')])
    expect(windowMessages(messages, 3, earliest).messages).toEqual([system, result('a', 'f'), calls(['f', 'a']), answer('done')])
  })

  it('finds the safe start in one pass over the window for a long history', () => {
    const messages: Message[] = [system]
    for (let turn = 0; turn < 2000; turn++) messages.push(user(`q${turn}`), calls(['f', `c${turn}`]), result(`c${turn}`, 'f'))
    const earliest = pairedEarliest(messages)
    // Starting on a result moves past it; starting on a call keeps it with its result.
    expect(safeTrimStart(earliest, messages.length - 1, messages.length)).toBe(messages.length)
    expect(safeTrimStart(earliest, messages.length - 2, messages.length)).toBe(messages.length - 2)
  })
})

describe('history_split_by_trim uses the same trim', () => {
  it('reports a result kept past the first message of the window, which it used to miss', () => {
    const messages = [user('go'), calls(['f', 'a'], ['g', 'b']), result('a', 'f'), user('and?'), result('b', 'g'), answer('done'), user('more'), user('?'), answer('ok')]
    // No request's window starts on the result for b; the one before message 5 starts on "and?" and keeps it.
    expect(findAnomalies(messages, undefined, { trimWindow: 2 })).toMatchObject([
      {
        message: 4,
        code: 'history_split_by_trim',
        detail: 'keeping the last 2 messages before the model call at message 5 would start the history at message 3 and keep this tool result and drop the call to f, g (message 1) it answers',
      },
    ])
  })

  it('reports a call kept without the result logged before it', () => {
    const messages = [user('go'), result('a', 'f'), calls(['f', 'a']), answer('done')]
    const split = findAnomalies(messages, undefined, { trimWindow: 2 }).find((anomaly) => anomaly.code === 'history_split_by_trim')
    expect(split).toMatchObject({
      message: 2,
      code: 'history_split_by_trim',
      detail: 'keeping the last 2 messages before the next model call would keep the call to f here and drop its result (message 1), logged before it',
    })
  })
})
