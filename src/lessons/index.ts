/**
 * The lesson path: the tool-use designs of the hand-written agent loops, from a registry and
 * tags to production concerns, then the failures. Each lesson is a real workspace (most reuse an
 * example's code in the wire format and settings that make the point) plus its text, which lives
 * in the UI's translation resources under `lessons.<id>` (title, goal, watch, question, and
 * `challenge` when there is one). Ids are stable: progress and share links store them.
 */
import type { EvalCase } from '../core/evals'
import type { Workspace } from '../core/files/workspace-file'
import { loopSettings } from '../core/loop/settings'
import { findExample, type Example } from '../examples/index'
import { all, atMostCalls, passesCase, firstCallOk, injectionContained, noFailedCalls, resultsAtMost, stoppedWith, modelSentUniqueIds, succeededAtLeast, uniqueToolCallIds, userGotAnswer, type Check } from './checks'
import registryTagsModel from './registry-tags/model.ts?raw'
import registryTagsTools from './registry-tags/tools.ts?raw'
import typedSchemaModel from './typed-schema/model.ts?raw'
import typedSchemaTools from './typed-schema/tools.ts?raw'
import jsonNoneModel from './json-none/model.ts?raw'
import jsonNoneTools from './json-none/tools.ts?raw'
import duplicateIdModel from './duplicate-id/model.ts?raw'
import duplicateIdSolutionModel from './duplicate-id/solution-model.ts?raw'
import duplicateIdTools from './duplicate-id/tools.ts?raw'
import fusionFallbackModel from './fusion-fallback/model.ts?raw'
import fusionFallbackTools from './fusion-fallback/tools.ts?raw'
import evalMetricsModel from './eval-metrics/model.ts?raw'
import evalMetricsSolutionModel from './eval-metrics/solution-model.ts?raw'
import structuredRoutingModel from './structured-routing/model.ts?raw'
import structuredRoutingTools from './structured-routing/tools.ts?raw'
import reflectionDispatchModel from './reflection-dispatch/model.ts?raw'
import reflectionDispatchTools from './reflection-dispatch/tools.ts?raw'
import evalMetricsTools from './eval-metrics/tools.ts?raw'
import { EVAL_CASE_INPUTS, LESSON_INPUTS, type LessonLanguage, type Translated } from './inputs'

export type { LessonLanguage } from './inputs'

/** The languages every lesson comes in. */
export const LESSON_LANGUAGES: readonly LessonLanguage[] = ['en', 'zh-CN', 'zh-TW']

/** The parts of a workspace a lesson sets (the file header is added by {@link lessonWorkspace}). */
export interface LessonWorkspace {
  tools: string
  model: string
  input: string
  protocol: string
  maxSteps: number
  /** Partial loop settings; the rest take their defaults. */
  loop: Record<string, unknown>
  /** Eval cases the Evals tab runs over this workspace. */
  cases?: EvalCase[]
  /** `input` in the Chinese languages (the mock model reads each the same way). */
  inputs?: Translated
  /** The cases' inputs in the Chinese languages, by case id. */
  caseInputs?: Readonly<Record<string, Translated>>
}

/** A task over the lesson's run, checked automatically, with a reference solution. */
export interface Challenge {
  /** Lists what is still wrong with a finished session; empty when it passes. */
  check: Check
  /** What the solution changes in the lesson's workspace (code and/or settings). */
  solution: Partial<Omit<LessonWorkspace, 'loop'>> & { loop?: Record<string, unknown> }
}

/** One step of the path. */
export interface Lesson {
  id: string
  /** Section of the path, a key under `lessonSections.`. */
  section: 'basics' | 'formats' | 'robust' | 'production' | 'failures'
  /** The example the code comes from, when it is one. */
  exampleId?: string
  workspace: LessonWorkspace
  challenge?: Challenge
}

function example(id: string): Example {
  const found = findExample(id)
  if (!found) throw new Error(`Lesson refers to a missing example "${id}".`)
  return found
}

/** A lesson workspace from an example, with `overrides` (loop settings are merged). */
function fromExample(id: string, overrides: Partial<LessonWorkspace> = {}): LessonWorkspace {
  const source = example(id)
  return {
    tools: source.tools,
    model: source.model,
    input: source.input,
    protocol: source.protocol,
    maxSteps: source.maxSteps ?? 8,
    ...overrides,
    loop: { ...(source.settings ?? {}), ...(overrides.loop ?? {}) },
  }
}

function own(tools: string, model: string, input: string, protocol: string, loop: Record<string, unknown> = {}, maxSteps = 8): LessonWorkspace {
  return { tools, model, input, protocol, maxSteps, loop }
}

/** The evaluation lesson's case its model gets wrong (the city is the question's last word): its challenge. */
const EVAL_METRICS_LYON: EvalCase = {
  id: 'weather-lyon',
  input: 'Is it raining in Lyon today?',
  assertions: [
    { type: 'tool-used', tool: 'get_weather' },
    { type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Lyon' } },
  ],
}
/**
 * The cases of the evaluation lesson: two tool choices, two argument checks and a case that must
 * not call a tool. The model's city bug fails one argument check, so the metrics differ.
 */
const EVAL_METRICS_CASES: EvalCase[] = [
  { id: 'weather-paris', input: 'What is the weather in Paris?', assertions: [{ type: 'tool-used', tool: 'get_weather' }, { type: 'tool-args-match', tool: 'get_weather', arguments: { city: 'Paris' } }] },
  EVAL_METRICS_LYON,
  { id: 'sum', input: 'What is 18 + 4?', assertions: [{ type: 'tool-used', tool: 'add' }, { type: 'final-answer', contains: '22' }] },
  { id: 'greeting', input: 'Hello!', assertions: [{ type: 'tool-not-used', tool: 'get_weather' }, { type: 'step-count', equals: 1 }] },
]

/** Every lesson, in the order the path walks them, its input in English only. */
const PATH: readonly Lesson[] = [
  { id: 'registry-tags', section: 'basics', workspace: own(registryTagsTools, registryTagsModel, 'What is the weather in Paris, and what is 18 + 4?', 'xml-tag') },
  { id: 'typed-schema', section: 'basics', workspace: own(typedSchemaTools, typedSchemaModel, 'What is 21 °C in Fahrenheit?', 'json') },
  { id: 'agent-loop', section: 'basics', exampleId: 'errors', workspace: fromExample('errors') },
  {
    id: 'step-cap',
    section: 'basics',
    exampleId: 'step-limit',
    workspace: fromExample('step-limit', { loop: { finalTurnWithoutTools: false } }),
    challenge: { check: userGotAnswer, solution: { loop: { finalTurnWithoutTools: true } } },
  },
  { id: 'parallel-calls', section: 'basics', exampleId: 'parallel-calls', workspace: fromExample('parallel-calls') },
  { id: 'bracket-regex', section: 'formats', exampleId: 'weather', workspace: fromExample('weather', { protocol: 'bracket' }) },
  { id: 'pipe-syntax', section: 'formats', exampleId: 'weather', workspace: fromExample('weather', { protocol: 'pipe', loop: { validation: { unknownArguments: 'reject', coerce: true } } }) },
  { id: 'native-tool-calls', section: 'formats', exampleId: 'weather', workspace: fromExample('weather', { protocol: 'openai' }) },
  { id: 'prompt-json', section: 'formats', workspace: own(jsonNoneTools, jsonNoneModel, 'What is the capital of Japan?', 'json') },
  // JSON first, then a regex over bracket markers, then an error written back (the fusion parser).
  { id: 'fusion-fallback', section: 'formats', workspace: own(fusionFallbackTools, fusionFallbackModel, 'Weather in Paris, 18 + 4, and the time there?', 'json', { fallbackProtocols: ['bracket'], maxParseRetries: 1 }) },
  { id: 'schema-validation', section: 'robust', exampleId: 'validation', workspace: fromExample('validation') },
  { id: 'name-aliases', section: 'robust', exampleId: 'tool-names', workspace: fromExample('tool-names') },
  { id: 'dispatcher-ids', section: 'robust', exampleId: 'parallel-calls', workspace: fromExample('parallel-calls', { protocol: 'openai' }) },
  { id: 'reflection-dispatch', section: 'robust', workspace: own(reflectionDispatchTools, reflectionDispatchModel, 'What is on my shopping list, and note Lisbon in May for the holidays.', 'openai') },
  { id: 'structured-routing', section: 'robust', workspace: own(structuredRoutingTools, structuredRoutingModel, 'Will it rain in Oslo today?', 'json') },
  { id: 'routing', section: 'production', exampleId: 'routing', workspace: fromExample('routing') },
  { id: 'code-as-action', section: 'production', exampleId: 'code-as-action', workspace: fromExample('code-as-action') },
  { id: 'confirmation', section: 'production', exampleId: 'dangerous-tool', workspace: fromExample('dangerous-tool') },
  { id: 'history-cleanup', section: 'production', exampleId: 'context-window', workspace: fromExample('context-window') },
  { id: 'result-externalisation', section: 'production', exampleId: 'result-shaping', workspace: fromExample('result-shaping') },
  // The workspace's own input is the case the model gets wrong, so Run shows the bug on the timeline.
  {
    id: 'eval-metrics',
    section: 'production',
    workspace: { ...own(evalMetricsTools, evalMetricsModel, EVAL_METRICS_LYON.input, 'json'), cases: EVAL_METRICS_CASES, caseInputs: EVAL_CASE_INPUTS },
    challenge: { check: passesCase(EVAL_METRICS_LYON, EVAL_CASE_INPUTS[EVAL_METRICS_LYON.id]), solution: { model: evalMetricsSolutionModel } },
  },
  {
    id: 'fail-malformed-json',
    section: 'failures',
    exampleId: 'parse-retry',
    workspace: fromExample('parse-retry', { loop: { maxParseRetries: 0 } }),
    challenge: { check: all(succeededAtLeast('get_weather', 1), stoppedWith('final_answer')), solution: { loop: { maxParseRetries: 2 } } },
  },
  {
    id: 'fail-hallucinated-tool',
    section: 'failures',
    exampleId: 'tool-names',
    workspace: fromExample('tool-names', { loop: { fuzzyToolNames: false } }),
    challenge: { check: succeededAtLeast('get_weather', 4), solution: { loop: { fuzzyToolNames: true } } },
  },
  {
    id: 'fail-wrong-types',
    section: 'failures',
    exampleId: 'validation',
    workspace: fromExample('validation', { loop: { validation: { unknownArguments: 'drop', coerce: false } } }),
    challenge: { check: firstCallOk, solution: { loop: { validation: { unknownArguments: 'drop', coerce: true } } } },
  },
  {
    id: 'fail-endless-loop',
    section: 'failures',
    exampleId: 'repeated-call',
    workspace: fromExample('repeated-call', { loop: { repeatedCall: { limit: 3, action: 'warn' } } }),
    challenge: { check: all(stoppedWith('repeated_call'), atMostCalls(3)), solution: { loop: { repeatedCall: { limit: 3, action: 'stop' } } } },
  },
  {
    id: 'fail-prompt-injection',
    section: 'failures',
    exampleId: 'result-shaping',
    workspace: fromExample('result-shaping', { loop: { untrustedWrapping: false } }),
    challenge: { check: injectionContained, solution: { loop: { untrustedWrapping: true } } },
  },
  {
    id: 'fail-huge-result',
    section: 'failures',
    exampleId: 'weather',
    workspace: fromExample('weather', { loop: { maxResultChars: 1_000_000, resultShaping: 'truncate', faults: [{ tool: 'get_weather', kind: 'huge' }] } }),
    challenge: { check: all(succeededAtLeast('get_weather', 1), resultsAtMost(2100)), solution: { loop: { maxResultChars: 2000 } } },
  },
  {
    id: 'fail-duplicate-id',
    section: 'failures',
    workspace: own(duplicateIdTools, duplicateIdModel, 'How many kettles and toasters are in stock?', 'openai'),
    challenge: { check: all(succeededAtLeast('get_stock', 2), modelSentUniqueIds, uniqueToolCallIds), solution: { model: duplicateIdSolutionModel } },
  },
  {
    id: 'fail-timeout',
    section: 'failures',
    exampleId: 'transient-timeout',
    workspace: fromExample('transient-timeout', { loop: { retryOnTimeout: false } }),
    challenge: { check: all(succeededAtLeast('get_weather', 1), noFailedCalls, stoppedWith('final_answer')), solution: { loop: { retryOnTimeout: true } } },
  },
]

/** Every lesson, in the order the path walks them, with its input in every language. */
export const lessons: readonly Lesson[] = PATH.map((lesson) => {
  const inputs = LESSON_INPUTS[lesson.id]
  return inputs ? { ...lesson, workspace: { ...lesson.workspace, inputs } } : lesson
})

/** The lesson with `id`, or `undefined`. */
export function findLesson(id: string): Lesson | undefined {
  return lessons.find((lesson) => lesson.id === id)
}

/** `lesson`'s workspace with its challenge's solution applied (loop settings merged). */
export function solvedWorkspace(lesson: Lesson): LessonWorkspace {
  const solution = lesson.challenge?.solution ?? {}
  return { ...lesson.workspace, ...solution, loop: { ...lesson.workspace.loop, ...(solution.loop ?? {}) } }
}

/**
 * A lesson workspace as a workspace file value (every loop setting filled in), its user message
 * and eval case inputs in `language` (English when there is no translation). Throws on invalid settings.
 */
export function lessonWorkspace(workspace: LessonWorkspace, language: LessonLanguage = 'en'): Workspace {
  const cases = workspace.cases?.map((c) => ({ ...c, input: inLanguage(c.input, workspace.caseInputs?.[c.id], language) }))
  return {
    format: 'toolstep.workspace',
    version: 1,
    tools: workspace.tools,
    model: workspace.model,
    input: inLanguage(workspace.input, workspace.inputs, language),
    settings: { protocol: workspace.protocol, maxSteps: workspace.maxSteps, systemPrompt: '', loop: loopSettings(workspace.loop) },
    ...(cases ? { cases } : {}),
  }
}

function inLanguage(english: string, translated: Translated | undefined, language: LessonLanguage): string {
  return language === 'en' ? english : (translated?.[language] ?? english)
}
