/**
 * Checking a case's assertions against the session log of its run. Pure.
 */
import type { JsonValue } from '../messages'
import type { SessionEvent } from '../loop/events'
import { fold } from '../loop/index'
import { validateArguments } from '../validation'
import type { Assertion } from './case-schema'
import { errorMessage, partialJsonMatch } from '../util'

/** One assertion's outcome: what was expected and what the run did (both JSON). */
export interface AssertionResult {
  type: Assertion['type']
  passed: boolean
  expected: JsonValue
  actual: JsonValue
}

/** One call the model made: resolved tool name and the arguments the tool got (or would have). */
export interface MadeCall {
  name: string
  arguments: Record<string, JsonValue>
}

/** The calls of a run in order: validated names and arguments where validated, code-as-action calls included. */
export function callsMade(events: readonly SessionEvent[]): MadeCall[] {
  const out: MadeCall[] = []
  let pending: MadeCall[] = []
  const flush = () => {
    out.push(...pending)
    pending = []
  }
  for (const event of events) {
    if (event.type === 'parse.completed') {
      flush()
      pending = event.calls.map((c) => ({ name: c.name, arguments: c.arguments }))
    } else if (event.type === 'validate.completed') {
      pending = event.verdicts.map((v, i) => ({ name: v.name, arguments: v.arguments ?? pending[i]?.arguments ?? {} }))
    } else if (event.type === 'tool.finished' && event.parentCallId !== undefined) {
      flush()
      out.push({ name: event.name, arguments: event.arguments ?? {} })
    }
  }
  flush()
  return out
}

/** Number of model turns (decide phases) in the log. */
export function stepCount(events: readonly SessionEvent[]): number {
  return events.filter((e) => e.type === 'model.responded' || e.type === 'model.failed').length
}

/** Anomalies and warnings on the log's events, as `code: detail`. */
export function flagsOf(events: readonly SessionEvent[]): string[] {
  return events.flatMap((e) => [...(e.anomalies ?? []), ...(e.warnings ?? [])].map((a) => `${a.code}: ${a.detail}`))
}

/** True when `actual` contains `expected`: same scalars, objects with at least its keys (deeply), arrays of the same length whose items do. */
export function partialMatch(expected: JsonValue, actual: JsonValue | undefined): boolean {
  return partialJsonMatch(expected, actual)
}

/** Check one assertion against a finished (or stopped) log. Never throws: a bad regex fails with the reason as `actual`. */
export function checkAssertion(assertion: Assertion, events: readonly SessionEvent[]): AssertionResult {
  const calls = callsMade(events)
  const names = calls.map((c) => c.name)
  const result = (passed: boolean, expected: JsonValue, actual: JsonValue): AssertionResult => ({ type: assertion.type, passed, expected, actual })
  switch (assertion.type) {
    case 'tool-used':
      return result(names.includes(assertion.tool), { tool: assertion.tool }, names)
    case 'tool-not-used':
      return result(!names.includes(assertion.tool), { notTool: assertion.tool }, names)
    case 'tool-sequence': {
      const expected = { tools: assertion.tools, order: assertion.order, exact: assertion.exact }
      if (assertion.order === 'set') {
        const want = new Set(assertion.tools)
        const got = new Set(names)
        const covered = [...want].every((t) => got.has(t))
        return result(covered && (!assertion.exact || [...got].every((t) => want.has(t))), expected, names)
      }
      if (assertion.exact) return result(names.length === assertion.tools.length && names.every((n, i) => n === assertion.tools[i]), expected, names)
      let next = 0
      for (const name of names) if (name === assertion.tools[next]) next++
      return result(next === assertion.tools.length, expected, names)
    }
    case 'tool-args-match': {
      const candidates = calls.filter((c) => c.name === assertion.tool).map((c) => c.arguments)
      const schema = assertion.schema
      const fits = (args: Record<string, JsonValue>) =>
        (assertion.arguments === undefined || partialMatch(assertion.arguments, args)) &&
        (schema === undefined || validateArguments({ name: assertion.tool, description: '', inputSchema: schema }, args).length === 0)
      const expected: JsonValue = { tool: assertion.tool, ...(assertion.arguments ? { arguments: assertion.arguments } : {}), ...(assertion.schema ? { schema: assertion.schema } : {}) }
      return result(candidates.some(fits), expected, candidates)
    }
    case 'step-count': {
      const steps = stepCount(events)
      return assertion.max !== undefined ? result(steps <= assertion.max, { max: assertion.max }, steps) : result(steps === assertion.equals, { equals: assertion.equals ?? 0 }, steps)
    }
    case 'stop-reason': {
      const stop = fold(events).stop
      return result(stop?.reason === assertion.reason, assertion.reason, stop?.reason ?? null)
    }
    case 'final-answer': {
      const answer = fold(events).finalAnswer
      const expected: JsonValue = { ...(assertion.contains !== undefined ? { contains: assertion.contains } : {}), ...(assertion.regex !== undefined ? { regex: assertion.regex, flags: assertion.flags ?? '' } : {}) }
      if (answer === null) return result(false, expected, null)
      let matches = true
      if (assertion.regex !== undefined) {
        try {
          matches = new RegExp(assertion.regex, assertion.flags ?? '').test(answer)
        } catch (error) {
          return result(false, expected, `invalid regex: ${errorMessage(error)}`)
        }
      }
      return result(matches && (assertion.contains === undefined || answer.includes(assertion.contains)), expected, answer)
    }
    case 'no-anomaly': {
      const flags = flagsOf(events)
      return result(flags.length === 0, [], flags)
    }
  }
}
