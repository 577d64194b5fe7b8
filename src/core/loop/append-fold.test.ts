import { describe, expect, it } from 'vitest'
import { createAppendFold, extendsLog } from './append-fold'
import { createFoldCache } from './fold-cache'
import { fold } from './reducer'
import type { SessionEvent } from './events'
import { countedReads } from '../../test/counted-reads'
import { growingLogs } from '../../test/growing-logs'

const countTypes = () =>
  createAppendFold<SessionEvent, Map<string, number>, Record<string, number>>({
    start: () => new Map(),
    add: (acc, event) => void acc.set(event.type, (acc.get(event.type) ?? 0) + 1),
    view: (acc) => Object.fromEntries(acc),
  })
const typesOf = (events: readonly SessionEvent[]) => events.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }), {})

describe('createAppendFold', () => {
  it('answers the fold of each log of a live run, adding each event once', async () => {
    const logs = await growingLogs(3, 5)
    let added = 0
    const fold = createAppendFold<SessionEvent, { n: number }, number>({ start: () => ({ n: 0 }), add: (acc) => void (acc.n++, added++), view: (acc) => acc.n })
    for (const log of logs) expect(fold(log)).toBe(log.length)
    expect(added).toBe(logs.at(-1)!.length)
    const types = countTypes()
    for (const log of logs) expect(types(log)).toEqual(typesOf(log))
  })

  it('starts again for a log that does not extend the last one (Reset, an import, a fork)', async () => {
    const logs = await growingLogs(2, 3)
    const full = logs.at(-1)!
    const types = countTypes()
    expect(types(full)).toEqual(typesOf(full))
    // Cut back (a fork keeps a prefix, then appends its edit).
    const fork = [...full.slice(0, 5), { ...full[5]! }]
    expect(types(fork)).toEqual(typesOf(fork))
    // A new log with a new first event and the same later ones (a replay continued live).
    const restarted = [{ ...full[0]! }, ...full.slice(1)]
    expect(types(restarted)).toEqual(typesOf(restarted))
    expect(types([])).toEqual({})
  })

  it('extendsLog compares the first and last shared events by identity', async () => {
    const full = (await growingLogs(1, 2)).at(-1)!
    expect(extendsLog([], full)).toBe(true)
    expect(extendsLog(full.slice(0, 4), full)).toBe(true)
    expect(extendsLog(full, full.slice(0, 4))).toBe(false)
    expect(extendsLog(full.slice(0, 4), [...full.slice(0, 3), { ...full[3]! }, ...full.slice(4)])).toBe(false)
  })
})

describe('createFoldCache on a growing log', () => {
  it('reads only the new events of a log that extends the last one', async () => {
    const logs = await growingLogs(40, 30)
    const full = logs.at(-1)!
    const cache = createFoldCache(100)
    const before = full.slice(0, full.length - 30)
    expect(cache.foldTo(before, before.length - 1)).toEqual(fold(before))
    const reads = { count: 0 }
    expect(cache.foldTo(countedReads(full, reads), full.length - 1)).toEqual(fold(full))
    // The last 30 events and the checkpoint's tail (< 100), plus the O(1) identity checks; not the 1 000 + shared ones.
    expect(reads.count).toBeLessThan(200)
    expect(full.length).toBeGreaterThan(1000)
  })
})
