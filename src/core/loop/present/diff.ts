/**
 * Logged vs re-run, phase by phase: what the model decided at each turn, the calls parsed
 * out of it, what the tools returned, and how each run ended. Pure.
 */
import type { JsonValue } from '../../messages'
import type { SessionEvent } from '../events'
import { loopRef } from '../loop-text'
import type { PhraseRef } from '../../util/phrase'

/** One model turn reduced to what can be compared across runs. */
export interface TurnSummary {
  /** 0-based turn index within the compared stretch. */
  turn: number
  /** The model's prose for the turn. */
  text: string
  calls: { name: string; arguments: Record<string, JsonValue> }[]
  /** Tool outcomes in call order: result text or `Error: …`. */
  results: { name: string; ok: boolean; content: string; callId?: string }[]
  /** The turn holds an `edit.applied`: it is compared as edited. */
  edited?: boolean
  parseErrors: string[]
  modelError?: string
}

/** Turns of a log, from its first decide on. */
export function turnsOf(events: readonly SessionEvent[]): TurnSummary[] {
  const turns: TurnSummary[] = []
  let current: TurnSummary | undefined
  for (const event of events) {
    if (event.type === 'model.responded' || event.type === 'model.failed') {
      current = { turn: turns.length, text: '', calls: [], results: [], parseErrors: [], ...(event.type === 'model.failed' ? { modelError: event.error } : {}) }
      turns.push(current)
    } else if (!current) continue
    else if (event.type === 'parse.completed') {
      current.text = event.text
      current.calls = event.calls.map((c) => ({ name: c.name, arguments: c.arguments }))
      current.parseErrors = event.errors.map((e) => e.message)
    } else if (event.type === 'tool.finished' && event.parentCallId === undefined) {
      current.results.push({ name: event.name, ok: event.error === undefined, content: event.error ?? event.result ?? '', callId: event.callId })
    } else if (event.type === 'edit.applied') {
      // An edit replaces what it edited: the turn is compared as it went on after the edit.
      if (event.target === 'model_output') Object.assign(current, { text: '', calls: [], results: [], parseErrors: [], edited: true })
      else {
        const result = current.results.find((r) => r.callId === event.callId)
        if (result) Object.assign(result, { ok: event.isError !== true, content: event.edited })
        current.edited = true
      }
    }
  }
  return turns
}

/** How a run ended, or `undefined` when it has not. */
export function stopOf(events: readonly SessionEvent[]): string | undefined {
  const last = events.at(-1)
  return last?.type === 'loop.stopped' ? last.reason : undefined
}

/** One phase of one turn, side by side. */
export interface DiffRow {
  turn: number
  phase: 'decide' | 'parse' | 'execute' | 'stop'
  logged: string | undefined
  rerun: string | undefined
  /** `logged` line by line when it holds Toolstep's own words (`(no call)`, `malformed: …`): those as phrases of `LOOP_TEXT`. */
  loggedLines?: DiffCellLines
  /** The same for `rerun`. */
  rerunLines?: DiffCellLines
  same: boolean
}

/** A diff cell's lines: the sessions' own text, or a phrase of a core catalogue (with its English). */
export type DiffCellLines = readonly (string | PhraseRef)[]

/** A cell's text from its lines, and the lines themselves when any is a phrase. */
export function cellOf(lines: DiffCellLines): { text: string; lines?: DiffCellLines } {
  const text = lines.map((line) => (typeof line === 'string' ? line : line.english)).join('\n')
  return lines.some((line) => typeof line !== 'string') ? { text, lines } : { text }
}

const callText = (c: TurnSummary['calls'][number]) => `${c.name}(${JSON.stringify(c.arguments)})`

/**
 * Aligns two stretches of log turn by turn and compares each phase: the prose (decide), the
 * calls (parse), the tool outcomes (execute), and at the end the stop reasons.
 */
export function diffSessions(logged: readonly SessionEvent[], rerun: readonly SessionEvent[]): DiffRow[] {
  const left = turnsOf(logged)
  const right = turnsOf(rerun)
  const rows: DiffRow[] = []
  for (let turn = 0; turn < Math.max(left.length, right.length); turn++) {
    const l = left[turn]
    const r = right[turn]
    const phase = (name: DiffRow['phase'], pick: (t: TurnSummary) => DiffCellLines) => {
      const a = l ? cellOf(pick(l)) : undefined
      const b = r ? cellOf(pick(r)) : undefined
      rows.push({ turn, phase: name, logged: a?.text, rerun: b?.text, ...(a?.lines ? { loggedLines: a.lines } : {}), ...(b?.lines ? { rerunLines: b.lines } : {}), same: a?.text === b?.text })
    }
    phase('decide', (t) => [t.modelError ? loopRef('cellModelFailed', { error: t.modelError }) : t.text || loopRef('cellNoText')])
    phase('parse', (t) => [t.calls.length ? t.calls.map(callText).join('\n') : t.parseErrors.length ? loopRef('cellMalformed', { errors: t.parseErrors.join('; ') }) : loopRef('cellNoCall')])
    phase('execute', (t) => [t.results.length ? t.results.map((x) => `${x.name} → ${x.content}`).join('\n') : '—'])
  }
  const a = stopOf(logged)
  const b = stopOf(rerun)
  rows.push({ turn: Math.max(left.length, right.length), phase: 'stop', logged: a, rerun: b, same: a === b })
  return rows
}
