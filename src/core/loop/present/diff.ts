/**
 * Logged vs re-run, phase by phase: what the model decided at each turn, the calls parsed
 * out of it, what the tools returned, and how each run ended. Pure.
 */
import type { JsonValue } from '../../messages'
import type { SessionEvent } from '../events'

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
  same: boolean
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
    const phase = (name: DiffRow['phase'], pick: (t: TurnSummary) => string) => {
      const a = l ? pick(l) : undefined
      const b = r ? pick(r) : undefined
      rows.push({ turn, phase: name, logged: a, rerun: b, same: a === b })
    }
    phase('decide', (t) => (t.modelError ? `model failed: ${t.modelError}` : t.text || '(no text)'))
    phase('parse', (t) => (t.calls.length ? t.calls.map(callText).join('\n') : t.parseErrors.length ? `malformed: ${t.parseErrors.join('; ')}` : '(no call)'))
    phase('execute', (t) => (t.results.length ? t.results.map((x) => `${x.name} → ${x.content}`).join('\n') : '—'))
  }
  const a = stopOf(logged)
  const b = stopOf(rerun)
  rows.push({ turn: Math.max(left.length, right.length), phase: 'stop', logged: a, rerun: b, same: a === b })
  return rows
}
