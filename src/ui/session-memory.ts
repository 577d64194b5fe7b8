/**
 * A reload keeps what was open. A live run or an opened session file is saved whole (it is
 * small) and shown again as it was, cursor included; a live run that was paused (not stopped)
 * comes back paused, and Step or Run goes on from where it was. An imported log can be tens of megabytes
 * and the browser gives no way to read the file again unasked, so only its name, the open
 * conversation and the cursor are kept, and the user is offered a one-click reopen.
 */
import { create } from 'zustand'
import { z } from 'zod'
import { readSession } from '../core/files'
import { workspaceSchema } from '../core/files'
import type { ImportOutcome } from '../store/import-controller'
import type { Playground } from '../store/playground'
import type { BreakHit } from '../core/debug'
import type { CorePhrase } from './i18n/text'

/** localStorage key of the remembered session. */
export const SESSION_KEY = 'toolstep.lastSession'
/** Largest log saved whole, chars of JSON; a bigger one is remembered by name only. */
export const MAX_SAVED_CHARS = 2_000_000
/** Wait this long after the last change before saving, ms. */
const SAVE_DELAY_MS = 300

const rememberedSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('log'),
    mode: z.enum(['live', 'replay']),
    cursor: z.number().int(),
    workspace: workspaceSchema.nullable(),
    events: z.array(z.unknown()),
    // The breakpoint the run was paused at, so Run continues past it (saved as the run slice holds it).
    breakHit: z.object({ seq: z.number().int(), at: z.number().int(), label: z.string(), where: z.string() }).passthrough().nullish(),
  }),
  z.object({
    kind: z.literal('file'),
    fileName: z.string(),
    // What stands for several files imported together (`4 files`), as the store words it.
    fileNamePhrase: z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).optional(),
    selected: z.number().int(),
    cursor: z.number().int(),
  }),
])

/** An imported log that was open before the reload, waiting for the user to pick the file again. */
export interface Reopen {
  fileName: string
  /** `fileName` as a phrase of STORE_TEXT (`filesLabel`) when it is not a file's name. */
  fileNamePhrase?: CorePhrase | undefined
  /** Conversation index that was open. */
  selected: number
  cursor: number
}

export const useSessionMemory = create<{ reopen: Reopen | null }>()(() => ({ reopen: null }))

function write(value: unknown | null): void {
  try {
    if (value === null) localStorage.removeItem(SESSION_KEY)
    else localStorage.setItem(SESSION_KEY, value instanceof SavedText ? value.text : JSON.stringify(value))
  } catch {
    // A full or disabled storage only costs the convenience of reopening after a reload.
  }
}

/** Logs known to be too big to save whole: a cursor move must not measure them again. */
const tooBig = new WeakSet<object>()

/**
 * True when `value` as JSON surely has more than `limit` chars: counts its strings, keys and
 * numbers without building the JSON, and stops as soon as the count passes `limit`, so a
 * 10 MB or 100 000-call log costs at most `limit` of work, not a JSON.stringify of all of it.
 * Iterative: no recursion on depth.
 */
function jsonOver(value: unknown, limit: number): boolean {
  let size = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item === 'string') size += item.length + 2
    else if (item !== null && typeof item === 'object') {
      if (Array.isArray(item)) {
        size += item.length + 1
        for (const entry of item) stack.push(entry)
      } else {
        for (const [key, entry] of Object.entries(item)) {
          size += key.length + 4
          stack.push(entry)
        }
      }
    } else size += 4
    if (size > limit) return true
  }
  return false
}

/** What is saved: `undefined` to save nothing now, `null` to forget, or the value (JSON text for a log). */
function snapshot(pg: Playground): unknown | null {
  const { events, cursor, mode, workspace, status, breakHit } = pg.stores.run.getState()
  const { fileName, fileNamePhrase, selected } = pg.stores.replay.getState()
  if (status === 'loading' || status === 'running') return undefined
  if (mode === 'replay' && fileName) return { kind: 'file', fileName, ...(fileNamePhrase ? { fileNamePhrase } : {}), selected, cursor }
  if (events.length === 0) return null
  if (tooBig.has(events)) return null
  if (jsonOver(events, MAX_SAVED_CHARS)) {
    tooBig.add(events)
    return null
  }
  const saved = JSON.stringify({ kind: 'log', mode, cursor, workspace, events, breakHit })
  return saved.length <= MAX_SAVED_CHARS ? new SavedText(saved) : null
}

/** A snapshot already written as JSON (so it is not stringified twice). */
class SavedText {
  constructor(readonly text: string) {}
}

/** Shows again what was open before the reload (or offers to reopen the imported file). Never throws. */
export function restoreSession(pg: Playground): void {
  let data: unknown
  try {
    data = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null')
  } catch {
    return
  }
  const parsed = rememberedSchema.safeParse(data)
  if (!parsed.success) return
  const value = parsed.data
  if (value.kind === 'file') {
    useSessionMemory.setState({ reopen: { fileName: value.fileName, fileNamePhrase: value.fileNamePhrase, selected: value.selected, cursor: value.cursor } })
    return
  }
  const session = readSession({ format: 'toolstep.session', version: 1, workspace: value.workspace, events: value.events })
  if (!session.ok || session.value.events.length === 0) return
  if (value.mode === 'live') pg.restoreRun(session.value.events, session.value.workspace, value.cursor, (value.breakHit ?? null) as BreakHit | null)
  else pg.showLog(session.value.events, value.mode, session.value.workspace, value.cursor)
}

/**
 * Re-imports the log the user had open — one file, or the several request/response files that
 * were imported together — and goes back to its conversation and cursor.
 */
export async function reopenFiles(pg: Playground, files: readonly File[]): Promise<ImportOutcome> {
  const reopen = useSessionMemory.getState().reopen
  useSessionMemory.setState({ reopen: null })
  const outcome = await pg.importFiles(files)
  if (outcome.ok && reopen && pg.stores.replay.getState().conversations[reopen.selected]) {
    await pg.openConversation(reopen.selected)
    pg.stores.run.getState().setCursor(reopen.cursor)
  }
  return outcome
}

/** Forgets the offer to reopen. */
export function dismissReopen(): void {
  useSessionMemory.setState({ reopen: null })
}

/** Saves what is open whenever it changes; returns the unsubscribe function. */
export function rememberSession(pg: Playground): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const save = () => {
    timer = undefined
    const value = snapshot(pg)
    if (value !== undefined) write(value)
  }
  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(save, SAVE_DELAY_MS)
  }
  // A reload or a closed tab within the save delay of a change would lose that change: save what
  // is pending as the page goes away (`pagehide` also fires where `beforeunload` does not, e.g. on
  // mobile and for the back-forward cache).
  const flush = () => {
    if (timer === undefined) return
    clearTimeout(timer)
    save()
  }
  addEventListener('pagehide', flush)
  const offRun = pg.stores.run.subscribe((s, p) => {
    if (s.events !== p.events || s.cursor !== p.cursor || s.status !== p.status || s.mode !== p.mode || s.breakHit !== p.breakHit) schedule()
  })
  const offReplay = pg.stores.replay.subscribe((s, p) => {
    if (s.fileName !== p.fileName || s.selected !== p.selected) schedule()
  })
  return () => {
    clearTimeout(timer)
    removeEventListener('pagehide', flush)
    offRun()
    offReplay()
  }
}
