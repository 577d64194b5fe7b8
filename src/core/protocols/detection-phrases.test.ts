import { describe, expect, it } from 'vitest'
import { fixtureCases } from '../../test/fixture-cases'
import { parseMessage } from '../util/parse-text'
import { detectProtocol, getProtocol, protocols } from './index'

/** Every fixture output and every format's own example. */
const outputs = [...fixtureCases.map((testCase) => testCase.raw), ...protocols.map((protocol) => protocol.example)]

describe('detection reasons as phrases', () => {
  it('every detection of every built-in format carries a phrase whose English is its reason', () => {
    let seen = 0
    for (const raw of outputs) {
      for (const protocol of protocols) {
        const detection = protocol.detect(raw)
        if (!detection) continue
        seen++
        expect(detection.phrase, `${protocol.id}: ${detection.reason}`).toBeDefined()
        expect(parseMessage(detection.phrase!)).toBe(detection.reason)
      }
    }
    expect(seen).toBeGreaterThan(outputs.length)
  })

  it("auto's reason, with the candidates that found nothing, is its phrase in English, word for word as before", () => {
    const auto = getProtocol('auto')!
    for (const raw of outputs) {
      const result = auto.parse(raw)
      expect(result.detectionPhrase, raw.slice(0, 60)).toBeDefined()
      expect(parseMessage(result.detectionPhrase!)).toBe(result.detection)
    }
    expect(auto.parse('Hello [TOOL_CALLS][{"name": "f", "arguments": {}}]')).toMatchObject({ protocol: 'mistral', detection: 'Found [TOOL_CALLS] at offset 6.', detectionPhrase: { key: 'detectFoundMarker', params: { marker: '[TOOL_CALLS]', at: 6 } } })
    expect(auto.parse('Just an answer.')).toMatchObject({ detection: 'No tool-call syntax found; the output is text.', detectionPhrase: { key: 'autoText' } })
    // A Python-looking call that is no call: the reason lists the miss, then says the output is text.
    const miss = auto.parse('[get_weather(city=]')
    expect(miss.detection).toBe('No tool-call syntax found; the output is text (pythonic at offset 0 found no call).')
    expect(miss.detectionPhrase).toEqual({ key: 'autoTextAfterMisses', params: { misses: { key: 'autoMiss', params: { id: 'pythonic', at: 0 } } } })
    expect(detectProtocol('<tool_call>{"name": "f", "arguments": {}}</tool_call>')).toMatchObject({ reason: 'Found <tool_call> at offset 0 with a JSON body.', phrase: { key: 'detectTagJson' } })
  })
})
