/**
 * The raw-output fixtures and the protocol each `format` maps to, shared by the protocol tests
 * and the CLI tests: `raw-outputs.json` (real and realistic outputs of 12 families) and
 * `authored-outputs.json` (cases written from each model's published chat template or docs,
 * named in `source`, for habits and families the first set does not hold).
 */
import authored from '../core/__fixtures__/authored-outputs.json'
import fixtures from '../core/__fixtures__/raw-outputs.json'
import type { JsonValue } from '../core/messages'

/** One case of `__fixtures__/raw-outputs.json`. */
export interface FixtureCase {
  id: string
  format: string
  raw: string
  expected: { calls: { name: string; arguments: Record<string, JsonValue> }[]; text: string | null }
  expect_error?: boolean
  kind?: string
  note?: string
  /** Authored cases: the protocol the case is written in. */
  protocol?: string
  /** Authored cases: the protocol `auto` must choose, when it is not `protocol`. */
  auto?: string
  /** Authored cases: the chat template or document the case follows. */
  source?: string
}

/** Fixture `format` → protocol id. */
export const FORMAT_PROTOCOLS: Readonly<Record<string, string>> = {
  openai_native: 'openai',
  json: 'json',
  xml_tag: 'xml-tag',
  hermes: 'xml-tag',
  bracket: 'bracket',
  pipe: 'pipe',
  mistral: 'mistral',
  llama3_json: 'llama3-json',
  pythonic: 'pythonic',
  deepseek: 'deepseek',
  granite: 'granite',
}

/** `mixed_other` cases name their family in the case id's kind. */
const MIXED_OTHER: Readonly<Record<string, string>> = {
  kimi_k2_sections: 'kimi-k2',
  glm45_arg_key_value: 'glm45',
  qwen3_coder_xml_multiline: 'qwen3-coder',
  command_r_action_block: 'command-r',
  gpt_oss_harmony_commentary: 'harmony',
}

/** Every fixture case. */
export const fixtureCases: readonly FixtureCase[] = [...(fixtures as FixtureCase[]), ...(authored as FixtureCase[])]

/** The protocol a case is written in, or undefined when no protocol covers it yet. */
export function protocolOf(testCase: FixtureCase): string | undefined {
  if (testCase.protocol !== undefined) return testCase.protocol
  if (testCase.format === 'mixed_other') return Object.hasOwn(MIXED_OTHER, testCase.kind ?? '') ? MIXED_OTHER[testCase.kind ?? ''] : undefined
  return Object.hasOwn(FORMAT_PROTOCOLS, testCase.format) ? FORMAT_PROTOCOLS[testCase.format] : undefined
}
