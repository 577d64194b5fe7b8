import { describe, expect, it } from 'vitest'
import { getProtocol, protocols } from '../../core/protocols'
import { findAnomalies, importLog } from '../../core/trace'
import { fixtureCases } from '../../test/fixture-cases'
import { calls, result, user } from '../../test/conversation'
import type { ToolSpec } from '../../core/tools'
import { coreSaid } from './core-text'
import { createI18n } from './index'
import { coreDetail, corePhrase, translate } from './text'

const zh = createI18n('zh-CN').t
const en = createI18n('en').t

/** Logs an importer recognises but cannot read, one per kind of field problem. */
const BROKEN = [
  '[{"traj": "nope"}]',
  '[{"traj": [{"role": "robot"}]}]',
  '{"messages": [{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": 3}}]}]}',
  '{"model": "m", "messages": [{"role": "user", "content": 5}], "system": "s"}',
  'data: {"type": "message_start"}\n\ndata: 5\n',
  '{"id": "r", "object": "response", "output": [{"type": "message", "role": "robot", "content": []}]}',
  '{"steps": [{"toolCalls": [5]}]}',
  '[{"id": "1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}, {"id": "2", "role": "robot", "parts": []}]',
]

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } }, required: ['city'], additionalProperties: false },
}

describe('what core says about what it read or imported, in the UI language', () => {
  it("auto-detection's reason: the UI's English is the CLI's, zh-CN translates it and keeps the marker and offset", () => {
    for (const raw of [...fixtureCases.map((testCase) => testCase.raw), ...protocols.map((protocol) => protocol.example)]) {
      const parsed = getProtocol('auto')!.parse(raw)
      expect(coreSaid(en, 'parse', { message: parsed.detection!, phrase: parsed.detectionPhrase })).toEqual({ text: parsed.detection })
    }
    const parsed = getProtocol('auto')!.parse('Hello [TOOL_CALLS][{"name": "f", "arguments": {}}]')
    expect(coreSaid(zh, 'parse', { message: parsed.detection!, phrase: parsed.detectionPhrase }).text).toBe('在偏移 6 处发现 [TOOL_CALLS]。')
    const text = getProtocol('auto')!.parse('[get_weather(city=]')
    expect(coreSaid(zh, 'parse', { message: text.detection!, phrase: text.detectionPhrase }).text).toBe('没有发现工具调用语法；输出是文本（pythonic 在偏移 0 处没有找到调用）。')
  })

  it('an import error names what was recognised and what is wrong with the field, both translated; the English is the CLI\'s', () => {
    for (const log of BROKEN) {
      const imported = importLog(log)
      expect(imported.ok, log).toBe(false)
      if (imported.ok) continue
      expect(imported.error).toMatch(/^Recognised /)
      expect(translate(en, corePhrase('trace', imported.errorPhrase!))).toBe(imported.error)
      expect(translate(zh, corePhrase('trace', imported.errorPhrase!)), imported.error).toMatch(/^识别为 /)
    }
    const roles = importLog(BROKEN[1]!)
    if (roles.ok) throw new Error('imported')
    expect(roles.error).toBe('Recognised a list of 1 conversation (records with "traj"), but [0].traj[0].role: expected one of "system", "developer", "user", "assistant", "tool", got role "robot".')
    expect(translate(zh, corePhrase('trace', roles.errorPhrase!))).toBe('识别为 1 个对话的列表（带 "traj" 的记录），但 [0].traj[0].role：应为"system", "developer", "user", "assistant", "tool" 之一，实际为 role "robot"。')
    const kind = importLog(BROKEN[3]!)
    if (kind.ok) throw new Error('imported')
    expect(translate(zh, corePhrase('trace', kind.errorPhrase!))).toBe('识别为 Anthropic Messages 请求，但 messages[0].content：应为字符串或内容块数组，实际为 数字。')
  })

  it('a schema_violation detail holds the validation problems as phrases: zh-CN translates them, the English is unchanged', () => {
    const [violation] = findAnomalies([user('x'), calls(['get_weather', 'a', '{"unit": "k", "extra": 1}']), result('a', 'get_weather')], [weather])
    expect(violation!.code).toBe('schema_violation')
    expect(violation!.detail).toBe('get_weather: "city" is required; unknown argument "extra"; "unit" must be one of: "c", "f"')
    expect(coreDetail(en, 'trace', { detail: '', phrase: violation!.phrase })).toBe(violation!.detail)
    const chinese = coreDetail(zh, 'trace', violation!)
    expect(chinese).toMatch(/^get_weather 的参数不符合其 Schema：/)
    expect(chinese).not.toMatch(/is required|unknown argument|must be one of/)
  })

  it('what JSON.parse said, where Toolstep words it (broken arguments in a log, a file that is not JSON): zh-CN gives the kind and the position, the English is the engine’s', () => {
    const [broken] = findAnomalies([user('x'), calls(['get_weather', 'a', '{"city": "Paris}']), result('a', 'get_weather')], [weather])
    expect(broken!.code).toBe('invalid_arguments_json')
    expect(broken!.detail).toMatch(/Unterminated string in JSON at position 16/)
    expect(coreDetail(en, 'trace', { detail: '', phrase: broken!.phrase })).toBe(broken!.detail)
    const chinese = coreDetail(zh, 'trace', broken!)
    expect(chinese).toContain('JSON 偏移 16 处')
    expect(chinese).toContain('字符串没有结束')
    expect(chinese).not.toMatch(/Unterminated|position/)
    const file = importLog('{"messages": [}')
    if (file.ok) throw new Error('imported')
    expect(translate(en, corePhrase('trace', file.errorPhrase!))).toBe(file.error)
    expect(translate(zh, corePhrase('trace', file.errorPhrase!))).toBe('不是有效的 JSON：意外的字符 \'}\'："{"messages": [}" 不是有效的 JSON。')
    const lines = importLog('{"a": 1}\n{"b": 2,}')
    if (lines.ok) throw new Error('imported')
    expect(translate(zh, corePhrase('trace', lines.errorPhrase!))).toBe('不是有效的 JSON 行：第 2 行：JSON 偏移 8 处：应为双引号括起的属性名。')
  })
})
