import { describe, expect, it } from 'vitest'
import type { NewSessionEvent, SessionEvent } from '../../core/loop'
import { loopSettings } from '../../core/loop'
import { NARRATION_KEYS, narrate } from '../../core/narration'
import { createI18n } from '../i18n/index'
import { LANGUAGES } from '../i18n/languages'
import { narrationText } from './text'

const span = { start: 0, end: 1 }
const call = (id: string, name: string) => ({ id, name, arguments: { city: 'Paris' }, spans: { call: span } })
const started = (execution: 'parallel' | 'sequential' = 'parallel', source: 'live' | 'replay' = 'live'): NewSessionEvent => ({
  type: 'session.started', source, protocol: 'json', tools: [], messages: [{ role: 'user', content: 'hi' }], maxSteps: 5, settings: loopSettings({ execution }),
})
const finished = (extra: Record<string, unknown>): NewSessionEvent =>
  ({ type: 'tool.finished', callId: 'c1', name: 'get_weather', durationMs: 12, timedOut: false, truncated: false, result: 'sunny', ...extra }) as NewSessionEvent

/** [expected key, the events, with the one narrated last] — one case per key. */
const CASES: [string, NewSessionEvent[]][] = [
  ['startLive', [started()]],
  ['startReplay', [started('parallel', 'replay')]],
  ['decide', [started(), { type: 'model.responded', step: 1, raw: 'abc', durationMs: 1 }]],
  ['decideFinalTurn', [started(), { type: 'model.responded', step: 6, raw: 'ok', durationMs: 1, finalTurn: true }]],
  ['modelFailed', [started(), { type: 'model.failed', step: 1, error: 'model.ts threw', durationMs: 1 }]],
  ['parseNone', [started(), { type: 'parse.completed', protocol: 'json', calls: [], text: 'Hi', repairs: [], errors: [] }]],
  ['parseOne', [started(), { type: 'parse.completed', protocol: 'json', calls: [call('c1', 'get_weather')], text: '', repairs: [], errors: [] }]],
  ['parseManyParallel', [started(), { type: 'parse.completed', protocol: 'json', calls: [call('c1', 'get_weather'), call('c2', 'calculate')], text: '', repairs: [], errors: [] }]],
  ['parseManySequential', [started('sequential'), { type: 'parse.completed', protocol: 'json', calls: [call('c1', 'get_weather'), call('c2', 'calculate')], text: '', repairs: [], errors: [] }]],
  ['parseErrors', [started(), { type: 'parse.completed', protocol: 'json', calls: [], text: '', repairs: [], errors: [{ code: 'invalid_json', message: 'Expected "," at 12' }] }]],
  ['parseFallback', [started(), { type: 'parse.completed', protocol: 'xml-tag', calls: [call('c1', 'get_weather')], text: '', repairs: [], errors: [] }]],
  ['validateOk', [started(), { type: 'validate.completed', verdicts: [{ callId: 'c1', name: 'get_weather', ok: true, problems: [] }] }]],
  ['validateCoerced', [started(), { type: 'validate.completed', verdicts: [{ callId: 'c1', name: 'get_weather', ok: true, problems: [], coercions: ['"days": "3" → 3'] }] }]],
  ['validateProblems', [started(), { type: 'validate.completed', verdicts: [{ callId: 'c1', name: 'get_weather', ok: false, problems: ['"city" is required'] }] }]],
  ['validateRepeated', [started(), { type: 'validate.completed', verdicts: [], repeated: { name: 'search_docs', count: 3 } }]],
  ['validateConfirm', [started(), { type: 'validate.completed', verdicts: [{ callId: 'c1', name: 'delete_file', ok: true, problems: [], confirm: true }] }]],
  ['confirmRequested', [started(), { type: 'confirm.requested', callIds: ['c1'] }]],
  ['confirmDecided', [started(), { type: 'confirm.decided', decisions: [{ callId: 'c1', decision: 'deny' }] }]],
  ['toolOk', [started(), finished({})]],
  ['toolError', [started(), finished({ result: undefined, error: 'Order A999 does not exist.' })]],
  ['toolTimedOut', [started(), finished({ result: undefined, error: 'timed out', timedOut: true, durationMs: 1000 })]],
  ['toolDeclined', [started(), finished({ result: undefined, error: 'denied', declined: true })]],
  ['toolTruncated', [started(), finished({ truncated: true, originalChars: 100000 })]],
  ['toolInjection', [started(), finished({ injection: [{ start: 0, end: 28, text: 'Ignore previous instructions' }], wrapped: true })]],
  ['backfillOne', [started(), { type: 'backfill.completed', messages: [{ role: 'assistant', content: null }, { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'sunny' }] }]],
  ['backfillMany', [started(), { type: 'backfill.completed', messages: [{ role: 'assistant', content: null }, { role: 'tool', tool_call_id: 'c1', name: 'a', content: '1' }, { role: 'tool', tool_call_id: 'c2', name: 'b', content: '2' }] }]],
  ['backfillCorrection', [started(), { type: 'backfill.completed', messages: [{ role: 'assistant', content: '<tool>{' }, { role: 'user', content: 'Your call was not valid JSON.' }] }]],
  ['backfillAssistant', [started(), { type: 'backfill.completed', messages: [{ role: 'assistant', content: 'Done.' }] }]],
  ['editOutput', [started(), { type: 'model.responded', step: 0, raw: 'abc', durationMs: 1 }, { type: 'edit.applied', target: 'model_output', editedSeq: 1, original: 'abc', edited: 'abcd' }]],
  ['editResult', [started(), finished({}), { type: 'edit.applied', target: 'tool_result', editedSeq: 1, callId: 'c1', name: 'get_weather', original: 'sunny', edited: 'snow' }]],
  ['stop.final_answer', [started(), { type: 'loop.stopped', reason: 'final_answer' }]],
  ['stop.max_steps', [started(), { type: 'loop.stopped', reason: 'max_steps', detail: 'Reached 5 steps.' }]],
  ['stop.maxStepsFinalTurn', [started(), { type: 'model.responded', step: 5, raw: 'ok', durationMs: 1, finalTurn: true }, { type: 'loop.stopped', reason: 'max_steps', detail: 'Stopped after 5 model turns.' }]],
  ['stop.repeated_call', [started(), { type: 'validate.completed', verdicts: [], repeated: { name: 'search_docs', count: 3 } }, { type: 'loop.stopped', reason: 'repeated_call', detail: 'search_docs 3 times.' }]],
  ['stop.aborted', [started(), { type: 'loop.stopped', reason: 'aborted' }]],
  ['stop.error', [started(), { type: 'loop.stopped', reason: 'error', detail: 'The output still held a malformed call.' }]],
]

const withSeq = (events: NewSessionEvent[]): SessionEvent[] => events.map((e, seq) => ({ ...e, seq, at: 0 }) as SessionEvent)

describe('narration', () => {
  it('has a case for every key narrate() can return', () => {
    expect(CASES.map(([key]) => key).sort()).toEqual([...NARRATION_KEYS].sort())
  })

  it.each(CASES)('%s: narrate() picks it', (key, events) => {
    const log = withSeq(events)
    expect(narrate(log, log.length - 1)?.key).toBe(key)
  })

  it('is undefined out of range and never throws on an empty log', () => {
    expect(narrate([], 0)).toBeUndefined()
    expect(narrate(withSeq([started()]), 5)).toBeUndefined()
  })

  it('says a validation problem and a parse error in the UI language when core phrased them (the English of older files as it is)', () => {
    const zh = createI18n('zh-CN').t
    const en = createI18n('en').t
    const verdict = { callId: 'c1', name: 'get_weather', ok: false, problems: ['"city" is required'], phrases: { problems: [{ key: 'required', params: { path: 'city' } }] } }
    const validated = withSeq([started(), { type: 'validate.completed', verdicts: [verdict] }])
    expect(narrationText(zh, validated, 1)).toBe('1 个调用中有 1 个校验失败，第一个是 get_weather：缺少必填的 "city"。原因会回填给模型。')
    expect(narrationText(en, validated, 1)).toContain('"city" is required')
    const older = withSeq([started(), { type: 'validate.completed', verdicts: [{ ...verdict, phrases: undefined }] }])
    expect(narrationText(zh, older, 1)).toContain('get_weather："city" is required')
    const parsed = withSeq([started(), { type: 'parse.completed', protocol: 'json', calls: [], text: '', repairs: [], errors: [{ code: 'invalid_json', message: 'Expected a JSON value, found the end of the input.', phrase: { key: 'jsonEmpty' } }] }])
    expect(narrationText(zh, parsed, 1)).not.toMatch(/Expected a JSON value/)
    expect(narrationText(en, parsed, 1)).toContain('Expected a JSON value, found the end of the input.')
  })

  it('shortens long parameters to one line', () => {
    const log = withSeq([started(), finished({ result: undefined, error: `line one\n${'x'.repeat(500)}` })])
    const error = String(narrate(log, 1)?.params.error)
    expect(error.length).toBeLessThanOrEqual(120)
    expect(error).not.toContain('\n')
  })

  it('a detail that ends in a full stop does not double the sentence\'s own (no "。。" or ".。")', () => {
    const log = withSeq([started(), finished({ result: undefined, error: 'Unknown tool "get_wether". Available tools: get_weather, lookup_order.' })])
    for (const language of LANGUAGES) {
      const text = narrationText(createI18n(language).t, log, 1)
      expect(text, language).not.toMatch(/[.。]\s*[.。]/)
      expect(text, language).toContain('Available tools: get_weather, lookup_order')
    }
  })

  it('a call not run because it failed validation says its problem in the UI language when the tool error is narrated', () => {
    const problem = 'Unknown tool "get_wether". Available tools: get_weather, lookup_order.'
    const verdict = { callId: 'c1', name: 'get_wether', ok: false, problems: [problem], phrases: { problems: [{ key: 'unknownTool', params: { name: '"get_wether"', tools: 'get_weather, lookup_order' } }] } }
    const log = withSeq([started(), { type: 'model.responded', step: 0, raw: '', durationMs: 1 }, { type: 'validate.completed', verdicts: [verdict] }, finished({ name: 'get_wether', result: undefined, error: problem })])
    const zh = narrationText(createI18n('zh-CN').t, log, 3)
    expect(zh).toContain('未知工具 "get_wether"')
    expect(zh).not.toContain('Available tools')
    expect(narrationText(createI18n('en').t, log, 3)).toContain(problem.slice(0, -1))
    // A tool that ran and threw says its own error as it is.
    const threw = withSeq([started(), { type: 'validate.completed', verdicts: [{ ...verdict, ok: true, problems: [] }] }, finished({ result: undefined, error: 'Order A999 does not exist.' })])
    expect(narrationText(createI18n('zh-CN').t, threw, 2)).toContain('Order A999 does not exist')
  })

  it('names the first five calls of a huge turn and gives the count, not 100 000 names', () => {
    const calls = Array.from({ length: 100_000 }, (_, i) => call(`c${i}`, `tool_${i}`))
    const log = withSeq([started(), { type: 'parse.completed', protocol: 'json', calls, text: '', repairs: [], errors: [] }])
    const text = narrationText(createI18n('en').t, log, 1)
    expect(text).toContain('100000 tools in one turn (tool_0, tool_1, tool_2, tool_3, tool_4, …)')
    expect(text.length).toBeLessThan(300)
  })

  describe.each(LANGUAGES)('in %s', (language) => {
    const i18n = createI18n(language)
    it.each(CASES)('%s reads as a full sentence with every parameter filled in', (_key, events) => {
      const log = withSeq(events)
      const text = narrationText(i18n.t, log, log.length - 1)
      expect(text).not.toBe('')
      expect(text).not.toContain('{{')
      expect(text).not.toContain('narration.') // a missing key would come back as itself
      const params = narrate(log, log.length - 1)?.params ?? {}
      for (const value of Object.values(params)) {
        // The singular form may say a count of 1 in words ("The call matches…").
        if (params.count === 1 && value === 1) continue
        // A detail's own closing full stop gives way to the sentence's.
        if (String(value) !== '') expect(text).toContain(String(value).replace(/(?<!\.)[.。]$/, ''))
      }
      if (language !== 'en') expect(text).toMatch(/[\u4e00-\u9fff]/)
    })
  })

  it('says why the loop stopped in plain words, differently per reason', () => {
    const i18n = createI18n('zh-CN')
    const reasons = ['final_answer', 'max_steps', 'repeated_call', 'aborted', 'error'] as const
    const texts = reasons.map((reason) => narrationText(i18n.t, withSeq([started(), { type: 'loop.stopped', reason }]), 1))
    expect(new Set(texts).size).toBe(5)
    expect(texts[1]).toContain('步数上限')
  })

  it('says the step cap and the repeated tool from the events, not from the English stop detail', () => {
    const i18n = createI18n('zh-CN')
    const capped = withSeq([started(), { type: 'loop.stopped', reason: 'max_steps', detail: 'Stopped after 5 model turns without a final answer.' }])
    expect(narrationText(i18n.t, capped, 1)).toBe('循环停止了，因为达到了 5 轮的步数上限，仍没有最终回答。')
    const repeated = withSeq([started(), { type: 'validate.completed', verdicts: [], repeated: { name: 'search_docs', count: 3 } }, { type: 'loop.stopped', reason: 'repeated_call', detail: '"search_docs" was called 3 times in a row with the same arguments.' }])
    expect(narrationText(i18n.t, repeated, 2)).toBe('循环停止了，因为 search_docs 以相同的参数连续被调用了 3 次。')
  })
})
