/**
 * What the inspector shows of the turn at the cursor, kept up to date as the log grows. The turn
 * is the events from its decide (or `session.started`) up to the cursor; slicing it out and
 * searching it a dozen times on every update cost O(turn) each time, and a turn of 100 000 calls
 * is updated every few thousand results while it runs. The log is folded once (each event is
 * filed under its turn as it arrives, see `createAppendFold`), and the turn at a cursor is read
 * from the file with binary searches: O(log n) plus copying the lists it returns.
 */
import { createAppendFold, type SessionEvent } from '../../core/loop'

type Ev<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

/** The events of one turn, filed as they came; every list is in log order. */
interface TurnFile {
  /** Index of its first event (the decide, or `session.started`). */
  start: number
  /** Its events by type. */
  byType: Map<SessionEvent['type'], Filed>
  /** Its events that carry warnings or anomalies. */
  flagged: Filed
}

/** Events and their indices in the log, in log order. */
interface Filed {
  events: SessionEvent[]
  at: number[]
}

/** The turn at a cursor, as the inspector shows it: each part up to the cursor. */
export interface TurnView {
  /** Index of the turn's first event. */
  start: number
  started?: Ev<'session.started'>
  responded?: Ev<'model.responded'>
  failed?: Ev<'model.failed'>
  parsed?: Ev<'parse.completed'>
  validated?: Ev<'validate.completed'>
  confirmRequested?: Ev<'confirm.requested'>
  confirmDecided?: Ev<'confirm.decided'>
  backfilled?: Ev<'backfill.completed'>
  stopped?: Ev<'loop.stopped'>
  finished: Ev<'tool.finished'>[]
  edits: Ev<'edit.applied'>[]
  /** The turn's events with warnings or anomalies. */
  flagged: SessionEvent[]
}

const startsTurn = (event: SessionEvent) => event.type === 'model.responded' || event.type === 'model.failed' || event.type === 'session.started'

/** How many of `filed` are at or before index `cursor`. */
function upTo(filed: Filed, cursor: number): number {
  let lo = 0
  let hi = filed.at.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (filed.at[mid]! <= cursor) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A log filed by turn; `turnAt` reads the turn at a cursor of the log it was made from. */
export interface TurnIndex {
  /** The turn holding `events[cursor]` (0 ≤ cursor < the log's length), its parts cut at the cursor. */
  turnAt(cursor: number): TurnView
}

/**
 * A function from a log to its {@link TurnIndex}, doing O(new events) work when the log
 * extends the last one it was given (a live run), O(n) otherwise.
 */
export function createTurnIndex(): (events: readonly SessionEvent[]) => TurnIndex {
  return createAppendFold<SessionEvent, TurnFile[], TurnIndex>({
    start: () => [],
    add: (turns, event, index) => {
      if (turns.length === 0 || (index > 0 && startsTurn(event))) turns.push({ start: index, byType: new Map(), flagged: { events: [], at: [] } })
      const turn = turns[turns.length - 1]!
      let filed = turn.byType.get(event.type)
      if (!filed) turn.byType.set(event.type, (filed = { events: [], at: [] }))
      filed.events.push(event)
      filed.at.push(index)
      if ((event.warnings?.length ?? 0) > 0 || (event.anomalies?.length ?? 0) > 0) {
        turn.flagged.events.push(event)
        turn.flagged.at.push(index)
      }
    },
    // The files only grow by appending, so a view cut at the count it was made for stays true.
    view: (turns, count) => ({
      turnAt(cursor) {
        const at = Math.min(cursor, count - 1)
        let lo = 0
        let hi = turns.length - 1
        while (lo < hi) {
          const mid = (lo + hi + 1) >>> 1
          if (turns[mid]!.start <= at) lo = mid
          else hi = mid - 1
        }
        const turn = turns[lo]
        if (!turn) return { start: 0, finished: [], edits: [], flagged: [] }
        const all = <T extends SessionEvent['type']>(type: T): Ev<T>[] => {
          const filed = turn.byType.get(type)
          return filed ? (filed.events.slice(0, upTo(filed, at)) as Ev<T>[]) : []
        }
        const first = <T extends SessionEvent['type']>(type: T): Ev<T> | undefined => {
          const filed = turn.byType.get(type)
          return filed && filed.at[0]! <= at ? (filed.events[0] as Ev<T>) : undefined
        }
        const view: TurnView = { start: turn.start, finished: all('tool.finished'), edits: all('edit.applied'), flagged: turn.flagged.events.slice(0, upTo(turn.flagged, at)) }
        const singles = {
          started: first('session.started'),
          responded: first('model.responded'),
          failed: first('model.failed'),
          parsed: first('parse.completed'),
          validated: first('validate.completed'),
          confirmRequested: first('confirm.requested'),
          confirmDecided: first('confirm.decided'),
          backfilled: first('backfill.completed'),
          stopped: first('loop.stopped'),
        }
        for (const [key, event] of Object.entries(singles)) if (event) Object.assign(view, { [key]: event })
        return view
      },
    }),
  })
}
