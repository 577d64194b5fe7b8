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

/** One example workspace. */
export interface Example {
  /** Stable id, e.g. `weather`. */
  id: string
  /** Name shown in the picker. */
  title: string
  /** One sentence on what it demonstrates. */
  description: string
  /** Wire format the example starts with (`openai`, `json`, `xml-tag`); every example works with all three. */
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
]

/** The example a new workspace starts from. */
export const defaultExample: Example = examples[0] as Example

/** The example with `id`, or `undefined`. */
export function findExample(id: string): Example | undefined {
  return examples.find((example) => example.id === id)
}
