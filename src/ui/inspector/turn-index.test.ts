import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/loop'
import { countedReads } from '../../test/counted-reads'
import { growingLogs } from '../../test/growing-logs'
import { createTurnIndex, type TurnView } from './turn-index'

type Ev<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

/** The turn at `cursor` the way the inspector used to read it: slice the turn out, then search it. */
function sliced(events: readonly SessionEvent[], cursor: number): TurnView {
  let start = cursor
  while (start > 0 && events[start]!.type !== 'model.responded' && events[start]!.type !== 'model.failed' && events[start]!.type !== 'session.started') start -= 1
  const turn = events.slice(start, cursor + 1)
  const find = <T extends SessionEvent['type']>(type: T) => turn.find((e): e is Ev<T> => e.type === type)
  const view: TurnView = {
    start,
    finished: turn.filter((e): e is Ev<'tool.finished'> => e.type === 'tool.finished'),
    edits: turn.filter((e): e is Ev<'edit.applied'> => e.type === 'edit.applied'),
    flagged: turn.filter((e) => (e.warnings?.length ?? 0) > 0 || (e.anomalies?.length ?? 0) > 0),
  }
  const singles = {
    started: find('session.started'),
    responded: find('model.responded'),
    failed: find('model.failed'),
    parsed: find('parse.completed'),
    validated: find('validate.completed'),
    confirmRequested: find('confirm.requested'),
    confirmDecided: find('confirm.decided'),
    backfilled: find('backfill.completed'),
    stopped: find('loop.stopped'),
  }
  for (const [key, event] of Object.entries(singles)) if (event) Object.assign(view, { [key]: event })
  return view
}

describe('createTurnIndex', () => {
  it('reads the same turn as slicing the log, at every cursor of every update of a live run', async () => {
    const logs = await growingLogs(3, 12, { invalidEvery: 3 })
    const turnsOf = createTurnIndex()
    for (const log of logs) {
      const index = turnsOf(log)
      for (let cursor = 0; cursor < log.length; cursor++) expect(index.turnAt(cursor)).toEqual(sliced(log, cursor))
    }
  })

  it('reads each event of a growing log once, however many updates it takes', async () => {
    const logs = await growingLogs(4, 400, { invalidEvery: 3 })
    const full = logs.at(-1)!
    const turnsOf = createTurnIndex()
    const reads = { count: 0 }
    for (const log of logs) turnsOf(countedReads(log, reads)).turnAt(log.length - 1)
    // Each event once, plus the four identity reads of each update (first and last, of the old log and the new); slicing read the turn (400+ events) on every update.
    expect(reads.count).toBeLessThanOrEqual(full.length + 4 * logs.length)
    expect(full.length).toBeGreaterThan(1600)
  })

  it('starts again for a log that does not extend the last one (Reset, an import, a fork)', async () => {
    const full = (await growingLogs(2, 5, { invalidEvery: 3 })).at(-1)!
    const turnsOf = createTurnIndex()
    turnsOf(full)
    const fork = [...full.slice(0, 9), { ...full[9]! }]
    const index = turnsOf(fork)
    for (let cursor = 0; cursor < fork.length; cursor++) expect(index.turnAt(cursor)).toEqual(sliced(fork, cursor))
    // A view made earlier still reads the log it was made from.
    expect(turnsOf(full).turnAt(full.length - 1)).toEqual(sliced(full, full.length - 1))
  })
})
