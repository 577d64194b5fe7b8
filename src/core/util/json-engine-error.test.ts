import { describe, expect, it } from 'vitest'
import { engineJsonError, engineJsonPhrase } from './json-engine-error'
import { PARSE_TEXT } from './parse-text'
import { renderPhrase } from './phrase'

function thrown(text: string): unknown {
  try {
    JSON.parse(text)
  } catch (error) {
    return error
  }
  throw new Error(`${text} parsed`)
}

describe('the engine’s JSON.parse messages as phrases', () => {
  it('keeps the engine’s own message as the English (the CLI and the model read it)', () => {
    for (const text of ['{"a":}', '{a:1}', '{"a":"x', '', '[1 2]', '1 2', 'undefined', '{"a":1,}', '"\\q"']) {
      const error = thrown(text)
      const ref = engineJsonError(error)
      expect(ref.english).toBe((error as Error).message)
      expect(ref.ns).toBe('parse')
      expect(ref.params?.message ?? (error as Error).message).toBe((error as Error).message)
    }
  })

  it('names the kind and where the JSON broke, for V8 (old and new wording) and SpiderMonkey', () => {
    expect(engineJsonPhrase("Expected property name or '}' in JSON at position 1 (line 1 column 2)")).toEqual({
      key: 'engineJsonPropertyName',
      params: { where: { key: 'engineJsonAtLine', params: { position: 1, line: 1, column: 2 } }, message: "Expected property name or '}' in JSON at position 1 (line 1 column 2)" },
    })
    expect(engineJsonPhrase('Unterminated string in JSON at position 7').params?.where).toEqual({ key: 'engineJsonAtPosition', params: { position: 7 } })
    expect(engineJsonPhrase('Unexpected token } in JSON at position 5')).toMatchObject({ key: 'engineJsonToken', params: { token: '}', where: { key: 'engineJsonAtPosition', params: { position: 5 } } } })
    expect(engineJsonPhrase('Unexpected token \'}\', "{"a":}" is not valid JSON')).toMatchObject({ key: 'engineJsonTokenQuoted', params: { token: "'}'", text: '"{"a":}"' } })
    expect(engineJsonPhrase('Unexpected end of JSON input').key).toBe('engineJsonEnd')
    expect(engineJsonPhrase('"undefined" is not valid JSON')).toMatchObject({ key: 'engineJsonNotJson', params: { text: '"undefined"' } })
    expect(engineJsonPhrase('JSON.parse: unterminated string at line 1 column 8 of the JSON data')).toMatchObject({ key: 'engineJsonString', params: { where: { key: 'engineJsonAtLineOnly', params: { line: 1, column: 8 } } } })
    expect(engineJsonPhrase('Something new in JSON at position 3').key).toBe('engineJsonOther')
    for (const [text, key] of [['[1 2]', 'engineJsonAfterElement'], ['{"a" 1}', 'engineJsonColon'], ['1 2', 'engineJsonTrailing'], ['"\\q"', 'engineJsonEscape'], ['"\\u12"', 'engineJsonUnicode'], ['"a\tb"', 'engineJsonControl'], ['-', 'engineJsonNumber'], ['{"a":1,}', 'engineJsonQuotedName'], ['{"a":1 "b"}', 'engineJsonAfterProperty']] as const) {
      expect(engineJsonError(thrown(text)).key, text).toBe(key)
    }
  })

  it('the catalogue’s English re-words a V8 message as V8 wrote it', () => {
    const message = "Expected ',' or ']' after array element in JSON at position 3 (line 1 column 4)"
    expect(renderPhrase(engineJsonPhrase(message), PARSE_TEXT)).toBe(message)
    // Numbers and text after the value are worded a little differently (one key for each).
    for (const text of ['{"a":}', '{a:1}', '{"a":"x', '', '[1 2]', 'undefined', '{"a":1,}', '"\\q"', '"\\u12"', '{"a" 1}']) {
      const said = (thrown(text) as Error).message
      expect(renderPhrase(engineJsonPhrase(said), PARSE_TEXT), text).toBe(said)
    }
  })
})
