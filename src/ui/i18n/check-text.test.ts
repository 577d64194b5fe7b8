import { describe, expect, it } from 'vitest'
import { getProtocol } from '../../core/protocols'
import { FILE_TEXT, PARSE_TEXT } from '../../core/catalogue'
import { VALIDATION_TEXT, prepareArguments } from '../../core/validation'
import { readSession, readWorkspace } from '../../core/files'
import { DEFAULT_LOOP_SETTINGS, parseWithFallback, validateTurn } from '../../core/loop'
import { renderPhrase } from '../../core/util'
import type { ToolSpec } from '../../core/tools'
import zhCN from './locales/zh-CN.json'
import { coreSaid, verdictText } from './core-text'
import { createI18n } from './index'
import { withJsonTypeNames } from './formats'
import zodZhCN from 'zod/v4/locales/zh-CN.js'

const zh = createI18n('zh-CN').t
const en = createI18n('en').t
const tw = createI18n('zh-TW').t
const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, filters: { type: 'object' } }, required: ['city'], additionalProperties: false },
}
const CJK = /[\u4e00-\u9fff]/
/** English words of three letters or more left in `text` once code, quotes and values are taken out. */
const englishLeft = (text: string) => text.replace(/"[^"]*"|'[^']*'|`[^`]*`|\{[^}]*\}|\[[^\]]*\]|<[^>]*>|\b[a-z_]+\b(?=\s*[:(=])/g, '').match(/\b[A-Za-z]{3,}\b/g) ?? []

describe('what core says about what it read, in the UI language', () => {
  it('every key core can emit (PARSE_TEXT, VALIDATION_TEXT, FILE_TEXT) has an English and a zh-CN text', () => {
    const core = (zhCN as unknown as { core: Record<string, Record<string, string>> }).core
    for (const [namespace, catalogue] of [['parse', PARSE_TEXT], ['validation', VALIDATION_TEXT], ['file', FILE_TEXT]] as const) {
      const keys = Object.keys(catalogue)
      expect(keys.length).toBeGreaterThan(5)
      for (const key of keys) {
        expect(en(`core.${namespace}.${key}`), `en ${namespace}.${key}`).not.toBe(`core.${namespace}.${key}`)
        expect(core[namespace]?.[key], `zh-CN ${namespace}.${key}`).toBeTruthy()
      }
    }
  })

  it('a repaired parse: the English is what the CLI prints, zh-CN translates it and keeps the offsets and keys', () => {
    const result = getProtocol('json')!.parse("```json\n{'name': 'get_weather', 'arguments': {'city': 'Paris', unit: 'c',}}\n```")
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather'])
    const byCode = Object.fromEntries(result.repairs.map((r) => [r.code, r]))
    expect(byCode['trailing_comma']!.message).toMatch(/^Ignored the trailing comma at offset \d+\.$/)
    for (const repair of result.repairs) {
      expect(renderPhrase(repair.phrase!, PARSE_TEXT)).toBe(repair.message)
      expect(coreSaid(en, 'parse', repair).text).toBe(repair.message)
    }
    const offset = /offset (\d+)/.exec(byCode['trailing_comma']!.message)![1]
    expect(coreSaid(zh, 'parse', byCode['trailing_comma']!)).toEqual({ text: `已忽略偏移 ${offset} 处多余的尾随逗号。` })
    expect(coreSaid(zh, 'parse', byCode['unquoted_key']!).text).toBe('已将未加引号的键 unit 读作 "unit"。')
    expect(coreSaid(zh, 'parse', byCode['single_quotes']!).text).toMatch(/^已将单引号字符串按 JSON 字符串读取。（共 \d+ 处；已标出第一处）$/)
    expect(coreSaid(tw, 'parse', byCode['fence_stripped']!).text).toMatch(/^已去掉.*Markdown 程式碼/)
  })

  it('a parse error nests the JSON reader diagnosis: lower-cased in English, translated whole in Chinese', () => {
    const result = getProtocol('openai')!.parse('{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\": \\"Par"}}]}')
    const error = result.errors[0]!
    expect(error.message).toMatch(/^The arguments of "get_weather" \(c1\) were cut off: the JSON ends inside the string/)
    const text = coreSaid(zh, 'parse', error).text
    expect(text).toMatch(/^"get_weather" 的参数被截断：JSON 在偏移 \d+ 开始的字符串（"Par）内结束/)
    expect(englishLeft(text)).toEqual(['JSON'])
  })

  it('the fallback chain says which formats it tried, in Chinese with the format ids as they are', () => {
    const result = parseWithFallback('[TOOL: get_weather] [ARGS: {"city": "Paris"}]', ['json', 'pythonic', 'bracket'])
    expect(result.detection).toBe('Fallback chain: json: no call; pythonic: no call; bracket: 1 call (matched).')
    expect(coreSaid(zh, 'parse', { message: result.detection!, phrase: result.detectionPhrase }).text).toBe('回退链：json：没有调用；pythonic：没有调用；bracket：1 个调用（匹配）。')
  })

  it('a failed validation: the model is told the English, the UI shows the received type and value and the string holding JSON in Chinese', () => {
    const prepared = prepareArguments(weather, { days: '3x', filters: '{"rain": true}', town: 'x' }, { unknownArguments: 'drop', coerce: false })
    expect(prepared.problems).toEqual(['"city" is required', '"days" must be an integer, got string "3x"', '"filters" is a JSON-encoded object; send the object itself'])
    expect(prepared.warnings).toEqual(['dropped unknown argument "town"'])
    const zhProblems = prepared.problems.map((_, i) => verdictText(zh, prepared.problems, prepared.phrases.problems, i).text)
    expect(zhProblems).toEqual(['缺少必填的 "city"', '"days" 必须是整数，实际收到 字符串 "3x"', '"filters" 是 JSON 编码后的对象；请直接发送该对象本身'])
    expect(verdictText(zh, prepared.warnings, prepared.phrases.warnings, 0).text).toBe('已丢弃未知参数 "town"')
    expect(prepared.problems.map((_, i) => verdictText(en, prepared.problems, prepared.phrases.problems, i).text)).toEqual(prepared.problems)
  })

  it('a verdict of the loop carries the phrases: an unknown tool names the tools there are, in Chinese', () => {
    const parse = { protocol: 'json', text: '', repairs: [], errors: [], calls: [{ id: 'c1', name: 'get_wether', arguments: {}, spans: { call: { start: 0, end: 0 } } }] }
    const event = validateTurn({ parse, tools: [weather], settings: DEFAULT_LOOP_SETTINGS, repeatRun: undefined, validationPolicy: 'live' } as unknown as Parameters<typeof validateTurn>[0])
    const verdict = event.verdicts[0]!
    expect(verdict.problems).toEqual(['Unknown tool "get_wether". Available tools: get_weather.'])
    expect(verdictText(zh, verdict.problems, verdict.phrases?.problems, 0).text).toBe('未知工具 "get_wether"。可用的工具：get_weather。')
  })

  it('a refused session file: the English error is unchanged, zod words the issue in zh-CN and zh-TW', () => {
    const read = readSession({ format: 'toolstep.session', version: 1, workspace: null, events: [{ seq: 'zero' }] })
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(read.error).toMatch(/^Not a Toolstep session: events\[0\]/)
    const zhText = coreSaid(zh, 'file', { message: read.error, phrase: read.phrase }).text
    expect(zhText).toBe('不是 Toolstep 会话：events[0].type：无效输入')
    expect(CJK.test(coreSaid(tw, 'file', { message: read.error, phrase: read.phrase }).text)).toBe(true)
    expect(coreSaid(en, 'file', { message: read.error, phrase: read.phrase }).text).toBe(read.error)
  })

  it('a refused workspace names the received type in Chinese (zod locale, not the value)', () => {
    const read = readWorkspace(JSON.stringify({ format: 'toolstep.workspace', version: 1, tools: 42, model: '', input: '', settings: { protocol: 'json', maxSteps: 4, systemPrompt: '' } }))
    if (read.ok) throw new Error('accepted')
    expect(read.error).toBe('Not a Toolstep workspace: tools: Invalid input: expected string, received number')
    expect(coreSaid(zh, 'file', { message: read.error, phrase: read.phrase }).text).toBe('不是 Toolstep 工作区：tools：无效输入：期望 字符串，实际接收 数字')
  })

  it('zod’s Chinese words name every JSON type as the verdicts do (期望 字符串, not 期望 string), in both scripts', () => {
    const read = readWorkspace(JSON.stringify({ format: 'toolstep.workspace', version: 1, tools: '', model: '', input: '', settings: 'fast' }))
    if (read.ok) throw new Error('accepted')
    const said = (t: typeof zh) => coreSaid(t, 'file', { message: read.error, phrase: read.phrase }).text
    expect(said(zh)).toBe('不是 Toolstep 工作区：settings：无效输入：期望 对象，实际接收 字符串')
    expect(said(tw)).toBe('不是 Toolstep 工作區：settings：無效的輸入值：預期為 物件，但收到 字串')
    const locale = withJsonTypeNames(zodZhCN(), (type) => ({ string: '字符串', array: '数组', boolean: '布尔值' })[type])
    expect(locale.localeError({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: '' } as never)).toBe('数值过小：期望 字符串 >=1 字符')
    expect(locale.localeError({ code: 'invalid_type', expected: 'boolean', input: [] } as never)).toBe('无效输入：期望 布尔值，实际接收 数组')
  })
})
