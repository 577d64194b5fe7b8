/**
 * The diff of any two sessions (two runs, a run and a replay, two logged conversations):
 * aligned turn by turn, comparing the model's text, the tools called, their arguments, their
 * results, and finally the stop reasons. Built on the loop's turn summaries (`turnsOf`). Pure.
 */
import type { SessionEvent } from '../loop/events'
import { cellOf, stopOf, turnsOf, type DiffCellLines, type TurnSummary } from '../loop/index'
import { debugRef } from './debug-text'
import { stableJson } from '../util/json-walk'

/** What a row compares. */
export type DiffAspect = 'text' | 'calls' | 'arguments' | 'results' | 'stop'

/** One aspect of one turn in both sessions; `null` when that session has no such turn. */
export interface SessionDiffRow {
  /** 1-based turn; for `stop`, the number of turns of the longer session. */
  turn: number
  aspect: DiffAspect
  a: string | null
  b: string | null
  /** `a` line by line when it holds Toolstep's own words (`(no call)`, `error: `): those as phrases of `DEBUG_TEXT`. */
  aLines?: DiffCellLines
  /** The same for `b`. */
  bLines?: DiffCellLines
  same: boolean
}

/** The whole comparison. */
export interface SessionDiff {
  same: boolean
  turns: { a: number; b: number }
  /** The first row that differs, or `null`. */
  firstDifference: { turn: number; aspect: DiffAspect } | null
  rows: SessionDiffRow[]
}

const ASPECTS: { aspect: Exclude<DiffAspect, 'stop'>; pick: (t: TurnSummary) => DiffCellLines }[] = [
  { aspect: 'text', pick: (t) => [t.modelError !== undefined ? debugRef('cellModelFailed', { error: t.modelError }) : t.text] },
  { aspect: 'calls', pick: (t) => [t.calls.length ? t.calls.map((c) => c.name).join(', ') : t.parseErrors.length ? debugRef('cellMalformed', { errors: t.parseErrors.join('; ') }) : debugRef('cellNoCall')] },
  { aspect: 'arguments', pick: (t) => [t.calls.map((c) => `${c.name} ${stableJson(c.arguments)}`).join('\n')] },
  { aspect: 'results', pick: (t) => t.results.map((r) => (r.ok ? `${r.name} → ${r.content}` : debugRef('cellResultError', { name: r.name, content: r.content }))) },
]

/** Compare two session logs turn by turn. Linear in the logs. */
export function diffTwoSessions(a: readonly SessionEvent[], b: readonly SessionEvent[]): SessionDiff {
  const left = turnsOf(a)
  const right = turnsOf(b)
  const rows: SessionDiffRow[] = []
  const turns = Math.max(left.length, right.length)
  for (let i = 0; i < turns; i++) {
    for (const { aspect, pick } of ASPECTS) {
      const x = left[i] ? cellOf(pick(left[i]!)) : null
      const y = right[i] ? cellOf(pick(right[i]!)) : null
      rows.push({ turn: i + 1, aspect, a: x?.text ?? null, b: y?.text ?? null, ...(x?.lines ? { aLines: x.lines } : {}), ...(y?.lines ? { bLines: y.lines } : {}), same: (x?.text ?? null) === (y?.text ?? null) })
    }
  }
  const stopA = stopOf(a) ?? null
  const stopB = stopOf(b) ?? null
  rows.push({ turn: turns, aspect: 'stop', a: stopA, b: stopB, same: stopA === stopB })
  const first = rows.find((r) => !r.same)
  return { same: !first, turns: { a: left.length, b: right.length }, firstDifference: first ? { turn: first.turn, aspect: first.aspect } : null, rows }
}

