import { describe, expect, it } from 'vitest'
import { LOOP_TEXT, loopPhrase, nextEffects, stopped, type StoredPhrase } from '../../core/loop'
import { ANOMALY_CATALOGUE, findAnomalies, importLog, importOpenAITools, TRACE_TEXT } from '../../core/trace'
import { storePhrase } from '../../store/messages'
import { DEBUG_TEXT, diffTwoSessions, planEdit } from '../../core/debug'
import { diffSessions } from '../../core/loop'
import { replayEvents } from '../../core/trace'
import zhCN from './locales/zh-CN.json'
import { createI18n } from './index'
import { cellText, coreDetail, coreText, corePhrase, translate } from './text'
import { answer, calls, result, user } from '../../test/conversation'

type Tree = { [key: string]: string | Tree }
const zhCore = (zhCN as unknown as { core: Record<string, Tree> }).core

/** Every key a catalogue can emit (plural variants are keys of their own). */
const CATALOGUES = { loop: LOOP_TEXT, trace: TRACE_TEXT, debug: DEBUG_TEXT } as const

describe('trace and loop phrases in the UI', () => {
  it('every key core can emit has English (core) and a Chinese entry', () => {
    const en = createI18n('en').t
    for (const [ns, catalogue] of Object.entries(CATALOGUES)) {
      for (const [key, english] of Object.entries(catalogue)) {
        expect(en(`core.${ns}.${key}`), `${ns}.${key}`).toBe(english)
        expect(typeof zhCore[ns]?.[key], `zh-CN core.${ns}.${key}`).toBe('string')
      }
    }
  })

  it("a phrase in the UI's English is exactly the detail the CLI prints, for every anomaly of the catalogue's examples", () => {
    const en = createI18n('en').t
    const found = ANOMALY_CATALOGUE.flatMap((entry) => findAnomalies(entry.example.messages, entry.example.tools, entry.example.options))
    expect(found.length).toBeGreaterThanOrEqual(ANOMALY_CATALOGUE.length)
    for (const anomaly of found) {
      expect(anomaly.phrase, anomaly.code).toBeDefined()
      // No default: a missing key or a wrong parameter would show, not fall back to the detail.
      expect(coreDetail(en, 'trace', { detail: '', phrase: anomaly.phrase })).toBe(anomaly.detail)
    }
  })

  it('renders anomaly details in Chinese, ids and tool names as they are, nested phrases translated', () => {
    const zh = createI18n('zh-CN').t
    const [orphan] = findAnomalies([user('hi'), result('call_9', 'get_weather')])
    expect(coreDetail(zh, 'trace', orphan!)).toBe('之前没有任何调用使用 tool_call_id "call_9"')
    const [invalid] = findAnomalies([calls(['get_weather', 'a', '{"city":']), result('a', 'get_weather')])
    expect(invalid!.code).toBe('invalid_arguments_json')
    expect(coreDetail(zh, 'trace', invalid!)).toMatch(/^对 get_weather 的调用的参数不是有效的 JSON（.+）$/)
    const split = findAnomalies([user('go'), result('a', 'f'), calls(['f', 'a']), { role: 'assistant', content: 'done' }], undefined, { trimWindow: 2 }).find((a) => a.code === 'history_split_by_trim')
    expect(coreDetail(zh, 'trace', split!)).toBe('在下一次模型调用之前只保留最后 2 条消息，会保留这里对 f 的调用，却丢掉在它之前记录的结果（消息 1）')
  })

  it('renders stop details in Chinese, and the English of an older file that has no phrase', () => {
    const zh = createI18n('zh-CN').t
    const max = stopped('max_steps', loopPhrase('maxSteps', { steps: 4, count: 4 }))
    expect(max.detail).toBe('Stopped after 4 model turns without a final answer.')
    expect(coreDetail(zh, 'loop', { detail: max.detail!, phrase: max.phrase })).toBe('模型调用 4 轮后停止，仍没有最终回答。')
    expect(coreDetail(zh, 'loop', { detail: 'Stopped after 4 model turns without a final answer.' })).toBe('Stopped after 4 model turns without a final answer.')
    // A key this build does not know shows the English it came with.
    expect(coreDetail(zh, 'loop', { detail: 'Some newer reason.', phrase: { key: 'fromTheFuture' } as StoredPhrase })).toBe('Some newer reason.')
  })

  it('the decider stops with phrased details whose English is unchanged', () => {
    const state = { stop: null, last: 'model.failed' } as unknown as Parameters<typeof nextEffects>[0]
    const [effect] = nextEffects(state)
    expect(effect).toEqual({ type: 'append', event: { type: 'loop.stopped', reason: 'error', detail: 'The model failed to respond.', phrase: { key: 'modelFailed' } } })
    const zh = createI18n('zh-CN').t
    expect(coreDetail(zh, 'loop', { detail: '', phrase: { key: 'modelFailed' } })).toBe('模型没有响应。')
  })

  it('renders import errors in Chinese inside the toast that names the file; the English is the CLI\'s', () => {
    const zh = createI18n('zh-CN').t
    const result = importLog('{"foo": 1, "bar": [2]}')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error).toMatch(/^Not a recognised log: the file is an object with keys "foo", "bar"; expected an OpenAI Chat Completions log/)
    expect(result.errorPhrase?.english).toBe(result.error)
    expect(translate(zh, corePhrase('trace', result.errorPhrase!))).toMatch(/^无法识别的日志：文件是一个对象（键为 "foo", "bar"）；应为 OpenAI Chat Completions 日志/)
    const toast = coreText('store', [storePhrase('fileError', { file: 'trace.json', error: result.errorPhrase! })])
    expect(translate(zh, toast)).toMatch(/^无法读取 trace\.json：无法识别的日志：/)
    const empty = importLog('  ')
    expect(!empty.ok && translate(zh, corePhrase('trace', empty.errorPhrase!))).toBe('文件是空的。')
    const tools = importOpenAITools('[{"type": "function", "function": {"description": "x"}}]')
    expect(!tools.ok && translate(zh, corePhrase('trace', tools.errorPhrase!))).toMatch(/^不是可用的工具文件：\[0\]\.function\.name：/)
  })

  it('renders diff cells in Chinese while the sessions\' own text stays, and compares on the English', () => {
    const zh = createI18n('zh-CN').t
    const called = replayEvents({ messages: [user('go'), calls(['get_weather', 'c1', '{"city":"Paris"}']), { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'HTTP 503', isError: true }, answer('sorry')] })
    const plain = replayEvents({ messages: [user('go'), answer('sunny')] })
    const diff = diffTwoSessions(called, plain)
    const calledCell = diff.rows.find((row) => row.turn === 1 && row.aspect === 'calls')!
    expect(calledCell.b).toBe('(no call)')
    expect(cellText(zh, calledCell.b!, calledCell.bLines)).toBe('（无调用）')
    expect(cellText(zh, calledCell.a!, calledCell.aLines)).toBe('get_weather')
    const results = diff.rows.find((row) => row.turn === 1 && row.aspect === 'results')!
    expect(results.a).toBe('get_weather → error: HTTP 503')
    expect(cellText(zh, results.a!, results.aLines)).toBe('get_weather → 错误：HTTP 503')
    const fork = diffSessions(plain, called)
    const parse = fork.find((row) => row.phase === 'parse')!
    expect(parse.logged).toBe('(no call)')
    expect(cellText(zh, parse.logged!, parse.loggedLines)).toBe('（无调用）')
  })

  it('renders why an edit is refused in Chinese', () => {
    const zh = createI18n('zh-CN').t
    const refused = planEdit(replayEvents({ messages: [user('go'), answer('sunny')] }), { target: 'model_output', seq: 0, edited: 'x' })
    expect(refused).toMatchObject({ ok: false, error: 'Event 0 is session.started, not a model output.' })
    if (refused.ok) return
    expect(translate(zh, corePhrase(refused.errorPhrase.ns, refused.errorPhrase))).toBe('事件 0 是 session.started，不是模型输出。')
  })
})
