/**
 * Running one eval case through the loop engine. The caller supplies the tools, the tool
 * executor and (unless the case scripts its outputs) the model, as for any live run.
 */
import type { ModelOutput, Model, ToolExecutor, ToolRouter, ResultSummarizer, CodeRunner } from '../loop/interfaces'
import type { SessionEvent } from '../loop/events'
import { LoopRunner } from '../loop/runner'
import type { SettingsInput } from '../loop/settings'
import { runInitFor } from '../loop/start'
import type { ToolSpec } from '../tools/types'
import { checkAssertion } from './assertions'
import type { EvalCase } from './case-schema'
import type { CaseResult } from './report'

/** A `Model` answering with `outputs` in order; past the end it fails, naming the turn. */
export function scriptedOutputs(outputs: NonNullable<EvalCase['outputs']>): Model {
  let turn = 0
  return {
    async respond() {
      const output = outputs[turn++]
      if (output === undefined) throw new Error(`The case scripts ${outputs.length} ${outputs.length === 1 ? 'model output' : 'model outputs'}; turn ${turn} has none.`)
      return typeof output === 'string' ? ({ kind: 'text', raw: output } satisfies ModelOutput) : { kind: 'message', message: { role: 'assistant', ...output } }
    },
  }
}

/** What a case runs with. */
export interface CaseEnvironment {
  settings: SettingsInput
  tools: ToolSpec[]
  /** The workspace's model; not asked when the case scripts its outputs. */
  model: Model
  executor: ToolExecutor
  router?: ToolRouter
  summarizer?: ResultSummarizer
  codeRunner?: CodeRunner
  /** ms since the epoch; injected for deterministic tests. */
  clock?: () => number
}

/** Run `evalCase` to its stop and check its assertions. Resolves with the result and the session log; rejects only on a bug. */
export async function runEvalCase(evalCase: EvalCase, env: CaseEnvironment): Promise<{ result: CaseResult; events: SessionEvent[] }> {
  const clock = env.clock ?? Date.now
  const started = clock()
  const runner = new LoopRunner({
    model: evalCase.outputs ? scriptedOutputs(evalCase.outputs) : env.model,
    executor: env.executor,
    ...(env.router ? { router: env.router } : {}),
    ...(env.summarizer ? { summarizer: env.summarizer } : {}),
    ...(env.codeRunner ? { codeRunner: env.codeRunner } : {}),
    confirm: async (calls) => calls.map((c) => ({ callId: c.call.id, decision: evalCase.approve === 'all' ? 'approve' : 'deny' })),
    clock,
  })
  runner.start(runInitFor({ settings: env.settings, input: evalCase.input }, env.tools, evalCase.maxSteps))
  const events = await runner.run()
  const assertions = evalCase.assertions.map((a) => checkAssertion(a, events))
  return {
    result: { id: evalCase.id, passed: assertions.every((a) => a.passed), assertions, durationMs: clock() - started, stopReason: runner.state.stop?.reason ?? null },
    events,
  }
}
