import { describe, expect, it } from 'vitest'
import { describeEvent, type SessionEvent } from '../../core/loop'
import { renderPhrase } from '../../core/util'
import { createI18n } from './index'
import { rowSummary } from '../timeline/row-summary'

// Partial events: the summary reads only these fields.
const ev = (event: Record<string, unknown>) => event as unknown as SessionEvent
const call = (name: string) => ({ id: `call_${name}`, name, arguments: {} })
const EVENTS: [SessionEvent, string][] = [
  [ev({ type: 'session.started', source: 'live', tools: [{}, {}], protocol: 'json' }), 'Start — 2 tools · json'],
  [ev({ type: 'session.started', source: 'replay', tools: [{}], protocol: 'openai' }), 'Start — replay · 1 tool · openai'],
  [ev({ type: 'model.responded', step: 0, raw: 'x'.repeat(42), durationMs: 1500 }), 'Decide · turn 1 — 42 chars · 1.5 s'],
  [ev({ type: 'model.responded', step: 2, raw: 'ab', finalTurn: true, firstTokenMs: 80, durationMs: 300, chunks: [{}, {}, {}], offeredTools: [{}], window: { from: 2, to: 8 } }), 'Decide · turn 3 (tools disabled) — 2 chars · TTFT 80 ms · total 300 ms · 3 chunks · 1 tool offered · window 6 msgs'],
  [ev({ type: 'model.failed', step: 1, error: 'HTTP 500' }), 'Decide · turn 2 — model failed: HTTP 500'],
  [ev({ type: 'parse.completed', calls: [], errors: [], repairs: [], protocol: 'json' }), 'Parse — no call: answer'],
  [ev({ type: 'parse.completed', calls: [], errors: [{ code: 'x' }], repairs: [], protocol: 'json' }), 'Parse — malformed call'],
  [ev({ type: 'parse.completed', calls: [call('a')], errors: [], repairs: [{ code: 'trailing_comma' }], protocol: 'json', detection: 'Fallback chain: json' }), 'Parse — 1 call: a · via json · 1 repair'],
  [ev({ type: 'parse.completed', calls: [call('a'), call('b')], errors: [], repairs: [{ code: 'fence_stripped' }, { code: 'prose_ignored' }], protocol: 'json' }), 'Parse — 2 calls: a, b · 2 repairs'],
  [ev({ type: 'validate.completed', verdicts: [{ ok: true }, { ok: false }], warnings: [{ code: 'repeated_call' }] }), 'Validate — 1 of 2 invalid · repeated_call'],
  [ev({ type: 'validate.completed', verdicts: [{ ok: true, coercions: [{}] }] }), 'Validate — 1 valid · 1 adjusted'],
  [ev({ type: 'confirm.requested', callIds: ['a'] }), 'Confirm — waiting for approval of 1 call'],
  [ev({ type: 'confirm.decided', decisions: [{ decision: 'approve' }, { decision: 'deny' }, { decision: 'edit' }] }), 'Confirm — approved, denied, edited'],
  [ev({ type: 'tool.finished', name: 'get_weather', durationMs: 12 }), 'Execute · get_weather — ok · 12 ms'],
  [ev({ type: 'tool.finished', name: 'f', parentCallId: 'p', error: 'boom', fault: 'throw', attempts: 2, injection: ['x'] }), '↳ f (from code) — error · fault: throw · 2 attempts · injection flagged'],
  [ev({ type: 'tool.finished', name: 'g', timedOut: true }), 'Execute · g — timed out'],
  [ev({ type: 'tool.finished', name: 'g', truncated: true }), 'Execute · g — ok · truncated'],
  [ev({ type: 'backfill.completed', messages: [{}] }), 'Backfill — +1 message'],
  [ev({ type: 'backfill.completed', messages: [{}, {}, {}] }), 'Backfill — +3 messages'],
  [ev({ type: 'loop.stopped', reason: 'max_steps' }), 'Stop — max_steps'],
  [ev({ type: 'parse.completed', calls: ['a', 'b', 'a', 'b', 'a', 'b', 'a'].map(call), errors: [], repairs: [], protocol: 'openai' }), 'Parse — 7 calls: a ×4, b ×3'],
  [ev({ type: 'parse.completed', calls: ['a', 'b', 'a', 'c', 'd', 'e', 'f', 'g', 'a'].map(call), errors: [], repairs: [], protocol: 'openai' }), 'Parse — 9 calls: a ×3, b, c, d, e … and 2 more'],
  // The stop's detail is on its row: its phrase (the English `detail` in the CLI), or the detail as it is.
  [ev({ type: 'loop.stopped', reason: 'error', detail: 'the log has no assistant turn', phrase: { key: 'logNoAssistant' } }), 'Stop — error · the log has no assistant turn'],
  [ev({ type: 'loop.stopped', reason: 'max_steps', detail: 'Stopped after 2 model turns without a final answer.', phrase: { key: 'maxSteps', params: { count: 2, steps: 2 } } }), 'Stop — max_steps · Stopped after 2 model turns without a final answer.'],
  [ev({ type: 'loop.stopped', reason: 'error', detail: 'HTTP 500' }), 'Stop — error · HTTP 500'],
]
const line = (s: { title: string; detail: string }) => `${s.title} — ${s.detail}`

describe('text from core in the UI', () => {
  it('the CLI English of timeline rows (describeEvent) is what it was: titles, counts, plurals and separators', () => {
    for (const [event, expected] of EVENTS) expect(line(describeEvent(event))).toBe(expected)
  })

  it("the UI's English for each phrase is core's English (i18next picks the same plural as renderPhrase)", () => {
    const t = createI18n('en').t
    for (const [event, expected] of EVENTS) expect(line(rowSummary(t, event))).toBe(expected)
  })

  it('in Chinese the rows are translated while identifiers stay', () => {
    const t = createI18n('zh-CN').t
    const zh = EVENTS.map(([event]) => line(rowSummary(t, event)))
    expect(zh[0]).toBe('开始 — 2 个工具 · json')
    expect(zh[8]).toBe('解析 — 2 个调用：a, b · 2 处修复')
    expect(zh[12]).toBe('确认 — 已批准, 已拒绝, 已编辑')
    expect(zh[19]).toBe('停止 — max_steps')
    expect(zh[20]).toBe('解析 — 7 个调用：a ×4, b ×3')
    expect(zh[21]).toBe('解析 — 9 个调用：a ×3, b, c, d, e … 另有 2 个')
    expect(zh[22]).toBe('停止 — error · 日志中没有 assistant 轮次')
    expect(zh[23]).toBe('停止 — max_steps · 模型调用 2 轮后停止，仍没有最终回答。')
    expect(zh[24]).toBe('停止 — error · HTTP 500')
  })

  it('renderPhrase fills parameters, picks _one/_other by count, and shows an unknown key rather than nothing', () => {
    const catalogue = { hi: 'hi {{name}}', n_one: '{{count}} item', n_other: '{{count}} items', plain: '{{count}} chars' }
    expect(renderPhrase({ key: 'hi', params: { name: 'Ana' } }, catalogue)).toBe('hi Ana')
    expect(renderPhrase({ key: 'hi' }, catalogue)).toBe('hi {{name}}')
    expect(renderPhrase({ key: 'n', params: { count: 1 } }, catalogue)).toBe('1 item')
    expect(renderPhrase({ key: 'n', params: { count: 0 } }, catalogue)).toBe('0 items')
    expect(renderPhrase({ key: 'plain', params: { count: 1 } }, catalogue)).toBe('1 chars')
    expect(renderPhrase({ key: 'missing' }, catalogue)).toBe('missing')
  })

  it('protocol labels, anomaly entries and example titles have their English from core and a Chinese translation', () => {
    const en = createI18n('en').t
    const zh = createI18n('zh-CN').t
    expect(en('core.protocol.auto.label')).toBe('Auto-detect')
    expect(zh('core.protocol.auto.label')).toBe('自动检测')
    expect(en('core.anomaly.duplicate_tool_call_id.title')).toBe('Duplicate tool_call_id')
    expect(zh('core.anomaly.duplicate_tool_call_id.title')).toBe('重复的 tool_call_id')
    expect(zh('core.example.weather.title')).toBe('天气、计算器和时钟')
  })
})
