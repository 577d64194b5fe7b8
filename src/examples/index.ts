/**
 * The built-in examples offered in the playground's example picker. Each is a real `tools.ts` /
 * `model.ts` pair (type-checked and unit-tested), loaded here as source text.
 * Ids are stable: they are saved in workspaces.
 */
import errorsModel from './errors/model.ts?raw'
import errorsTools from './errors/tools.ts?raw'
import hangingModel from './hanging-tool/model.ts?raw'
import hangingTools from './hanging-tool/tools.ts?raw'
import neverAnswersModel from './never-answers/model.ts?raw'
import neverAnswersTools from './never-answers/tools.ts?raw'
import weatherModel from './weather/model.ts?raw'
import weatherTools from './weather/tools.ts?raw'
import validationModel from './validation/model.ts?raw'
import validationTools from './validation/tools.ts?raw'
import toolNamesModel from './tool-names/model.ts?raw'
import toolNamesTools from './tool-names/tools.ts?raw'
import parseRetryModel from './parse-retry/model.ts?raw'
import parseRetryTools from './parse-retry/tools.ts?raw'
import fallbackChainModel from './fallback-chain/model.ts?raw'
import fallbackChainTools from './fallback-chain/tools.ts?raw'
import repeatedCallModel from './repeated-call/model.ts?raw'
import repeatedCallTools from './repeated-call/tools.ts?raw'
import parallelCallsModel from './parallel-calls/model.ts?raw'
import parallelCallsTools from './parallel-calls/tools.ts?raw'
import dangerousToolModel from './dangerous-tool/model.ts?raw'
import dangerousToolTools from './dangerous-tool/tools.ts?raw'
import resultShapingModel from './result-shaping/model.ts?raw'
import resultShapingTools from './result-shaping/tools.ts?raw'
import contextWindowModel from './context-window/model.ts?raw'
import contextWindowTools from './context-window/tools.ts?raw'
import routingModel from './routing/model.ts?raw'
import routingTools from './routing/tools.ts?raw'
import codeAsActionModel from './code-as-action/model.ts?raw'
import codeAsActionTools from './code-as-action/tools.ts?raw'
import faultInjectionModel from './fault-injection/model.ts?raw'
import stepLimitModel from './step-limit/model.ts?raw'
import transientTimeoutModel from './transient-timeout/model.ts?raw'
import transientTimeoutTools from './transient-timeout/tools.ts?raw'
import faultInjectionTools from './fault-injection/tools.ts?raw'
import sequentialCallsModel from './sequential-calls/model.ts?raw'
import sequentialCallsTools from './sequential-calls/tools.ts?raw'
import unknownArgumentsModel from './unknown-arguments/model.ts?raw'
import unknownArgumentsTools from './unknown-arguments/tools.ts?raw'
import resultTruncationModel from './result-truncation/model.ts?raw'
import resultTruncationTools from './result-truncation/tools.ts?raw'
import parseGiveUpModel from './parse-give-up/model.ts?raw'
import parseGiveUpTools from './parse-give-up/tools.ts?raw'

/** One example workspace. */
export interface Example {
  /** Stable id, e.g. `weather`. */
  id: string
  /** Name shown in the picker. */
  title: string
  /** One sentence on what it demonstrates. */
  description: string
  /** Wire format the example starts with (`openai`, `json`, `xml-tag`). */
  protocol: string
  /** The user message the run starts from. */
  input: string
  /** Source of `tools.ts`. */
  tools: string
  /** Source of `model.ts`. */
  model: string
  /** Step limit, when the example wants one other than the default. */
  maxSteps?: number
  /** Extra system prompt text, when the example wants some. */
  systemPrompt?: string
  /**
   * Loop behaviour settings the example needs, as a partial of the workspace's `settings.loop`
   * (e.g. `{ contextWindow: 6 }`); every other setting keeps its default.
   */
  settings?: Record<string, unknown>
}

/** All examples, default first. */
export const examples: readonly Example[] = [
  {
    id: 'weather',
    title: 'Weather, calculator and clock',
    description: 'A mock model calls a tool, reads its result and answers: the basic loop.',
    protocol: 'openai',
    input: 'What is the weather in Paris, and what is (12 + 30) * 2?',
    tools: weatherTools,
    model: weatherModel,
  },
  {
    id: 'errors',
    title: 'Errors written back',
    description: 'An unknown tool, arguments that fail the schema, and a tool that throws; each error goes back to the model.',
    protocol: 'json',
    input: 'Check the weather in Oslo and the status of order A999.',
    tools: errorsTools,
    model: errorsModel,
  },
  {
    id: 'hanging-tool',
    title: 'Hanging tools',
    description: 'A tool stuck in while(true) and one awaiting forever are killed at their 1 s timeout; the loop continues.',
    protocol: 'xml-tag',
    input: 'Run the slow tools, then check the weather in Lisbon.',
    tools: hangingTools,
    model: hangingModel,
  },
  {
    id: 'never-answers',
    title: 'Never answers',
    description: 'A model that keeps calling a tool and never answers, stopped by max_steps.',
    protocol: 'openai',
    input: 'Find everything about tool calling.',
    tools: neverAnswersTools,
    model: neverAnswersModel,
    maxSteps: 5,
  },
  {
    id: 'validation',
    title: 'Argument validation',
    description: 'Safe repairs ("3" → 3, the city_name alias, an unknown argument dropped) are shown; what cannot be repaired is told to the model precisely, and it corrects itself.',
    protocol: 'json',
    input: 'What is the weather in Paris for the next 3 days, and the next 20?',
    tools: validationTools,
    model: validationModel,
    settings: { validation: { unknownArguments: 'drop', coerce: true } },
  },
  {
    id: 'tool-names',
    title: 'Tool-name resolution',
    description: 'getWeather, get-weather, an alias and a typo resolve to get_weather (each resolution shown); "constructor" never resolves and gets the list of tools.',
    protocol: 'openai',
    input: 'Weather in five cities, please.',
    tools: toolNamesTools,
    model: toolNamesModel,
    settings: { fuzzyToolNames: true },
  },
  {
    id: 'parse-retry',
    title: 'Parse-failure retry',
    description: 'A call with broken JSON is not taken as the final answer: a correction naming the error goes back, and the second try parses.',
    protocol: 'xml-tag',
    input: 'What is the weather in Paris for the next two days?',
    tools: parseRetryTools,
    model: parseRetryModel,
    settings: { maxParseRetries: 2, onParseFailure: 'error' },
  },
  {
    id: 'fallback-chain',
    title: 'Fallback chain',
    description: 'The model switches formats every turn (native, JSON, Hermes tags); the chain openai → json → xml-tag parses each and says which matched.',
    protocol: 'openai',
    input: 'Weather and time in Tokyo, and 100 EUR in yen.',
    tools: fallbackChainTools,
    model: fallbackChainModel,
    settings: { fallbackProtocols: ['openai', 'json', 'xml-tag'] },
  },
  {
    id: 'repeated-call',
    title: 'Repeated call',
    description: 'The same call with the same arguments, over and over: stopped with repeated_call after 3 instead of burning every step.',
    protocol: 'json',
    input: 'How do I retry a failed tool call?',
    tools: repeatedCallTools,
    model: repeatedCallModel,
    maxSteps: 10,
    settings: { repeatedCall: { limit: 3, action: 'stop' } },
  },
  {
    id: 'parallel-calls',
    title: 'Parallel calls',
    description: 'Four calls in one output run concurrently (one depends on another, one fails); each gets its own result, in call order, paired by tool_call_id.',
    protocol: 'json',
    input: 'Weather in Paris, Oslo and Atlantis, and what should I pack for Paris?',
    tools: parallelCallsTools,
    model: parallelCallsModel,
    settings: { execution: 'parallel' },
  },
  {
    id: 'dangerous-tool',
    title: 'Dangerous tool',
    description: 'delete_file is marked dangerous: the loop asks you to approve, deny or edit the call, and a denial is written back as its result.',
    protocol: 'openai',
    input: 'Clean up my notes folder.',
    tools: dangerousToolTools,
    model: dangerousToolModel,
  },
  {
    id: 'result-shaping',
    title: 'Result shaping',
    description: 'A 10 000-character log goes through the summarize hook; a page saying "Ignore previous instructions" is wrapped as untrusted data and flagged.',
    protocol: 'json',
    input: 'Check the checkout log, then find hiking trails near Oslo.',
    tools: resultShapingTools,
    model: resultShapingModel,
    settings: { maxResultChars: 2000, resultShaping: 'summarize', untrustedWrapping: true },
  },
  {
    id: 'context-window',
    title: 'Context window',
    description: 'Only the system prompt and the last 6 messages reach the model: by the end it can no longer see the question it was asked.',
    protocol: 'openai',
    input: 'Read the handbook and tell me what chapter 1 is about.',
    tools: contextWindowTools,
    model: contextWindowModel,
    settings: { contextWindow: 6 },
  },
  {
    id: 'routing',
    title: 'Tool routing',
    description: 'A route hook offers only the tools a message needs (keywords pick namespaces such as weather.*), instead of all 8 at every step.',
    protocol: 'json',
    input: "What's the weather in Paris right now, and what's on my calendar today?",
    tools: routingTools,
    model: routingModel,
  },
  {
    id: 'code-as-action',
    title: 'Code as action',
    description: 'The model answers with a JavaScript block that calls two tools in a loop and prints the results; only the tools are in scope.',
    protocol: 'json',
    input: 'What is the temperature in Paris and Madrid, in °C and °F?',
    tools: codeAsActionTools,
    model: codeAsActionModel,
    settings: { codeAsAction: true },
  },
  {
    id: 'fault-injection',
    title: 'Fault injection',
    description: 'The flight search is made to time out on turn 1 and the hotel search to be slow: the timeout is reported, the loop goes on, the model retries.',
    protocol: 'xml-tag',
    input: 'Find me a flight from Paris to Lisbon on June 1 and a hotel there.',
    tools: faultInjectionTools,
    model: faultInjectionModel,
    settings: {
      faults: [
        { tool: 'search_flights', kind: 'timeout', atStep: 1 },
        { tool: 'search_hotels', kind: 'latency', latencyMs: 800 },
      ],
    },
  },
  {
    id: 'step-limit',
    title: 'Last turn without tools',
    description: 'A model that keeps searching hits max steps; the loop asks it once more with tools disabled, so the user still gets an answer.',
    protocol: 'json',
    input: 'Tell me everything about tool calling.',
    tools: neverAnswersTools,
    model: stepLimitModel,
    maxSteps: 3,
    settings: { finalTurnWithoutTools: true },
  },
  {
    id: 'transient-timeout',
    title: 'Retry on timeout',
    description: 'The weather tool times out once (an injected fault on turn 1); with "Retry once on timeout" the second attempt succeeds and the run goes on.',
    protocol: 'openai',
    input: 'What is the weather in Paris?',
    tools: transientTimeoutTools,
    model: transientTimeoutModel,
    settings: { retryOnTimeout: true, faults: [{ tool: 'get_weather', kind: 'timeout', atStep: 1 }] },
  },
  {
    id: 'sequential-calls',
    title: 'Sequential execution',
    description: 'Three booking steps in one output run one after another, in call order: each reports it ran alone (switch to parallel to see them overlap).',
    protocol: 'json',
    input: 'Book flight TP 441 for 129 EUR and email ada@example.com.',
    tools: sequentialCallsTools,
    model: sequentialCallsModel,
    settings: { execution: 'sequential' },
  },
  {
    id: 'unknown-arguments',
    title: 'Rejecting unknown arguments',
    description: 'A call with arguments the schema does not declare is refused (not silently trimmed); the model is told which, and calls again correctly.',
    protocol: 'openai',
    input: 'What is the weather in Lisbon?',
    tools: unknownArgumentsTools,
    model: unknownArgumentsModel,
    settings: { validation: { unknownArguments: 'reject', coerce: true } },
  },
  {
    id: 'result-truncation',
    title: 'Result truncation',
    description: 'A 5 000-character result is cut to 600 with a marker saying how much was shown, so the model knows it saw only part.',
    protocol: 'xml-tag',
    input: 'What is in src/big.ts?',
    tools: resultTruncationTools,
    model: resultTruncationModel,
    settings: { maxResultChars: 600, resultShaping: 'truncate' },
  },
  {
    id: 'parse-give-up',
    title: 'Text as the answer after parse retries',
    description: 'Every call is malformed; after one correction the loop stops retrying and takes the text as the final answer, marked as malformed.',
    protocol: 'xml-tag',
    input: 'How are tool calls retried?',
    tools: parseGiveUpTools,
    model: parseGiveUpModel,
    settings: { maxParseRetries: 1, onParseFailure: 'final_answer' },
  },
]

/** The example a new workspace starts from. */
export const defaultExample: Example = examples[0] as Example

/** The example with `id`, or `undefined`. */
export function findExample(id: string): Example | undefined {
  return examples.find((example) => example.id === id)
}
