/**
 * The playground's `PhaseRunner`: small turns are parsed and validated in the page (a worker
 * round trip would cost more than the work), big ones in a dedicated worker so that the page
 * is never blocked by what a model emits. The events are the builders' either way (see
 * `engine-phases-protocol.ts` for how they travel). Stop cancels a phase in flight by ending its
 * worker; the next big phase starts a fresh one.
 */
import { inThreadPhases, nextTask, type ParseCompleted, type PhaseRunner, type ValidateCompleted } from '../core/loop'
import { readJsonParts, rememberJson, type JsonPartsReader } from '../core/util'
import { fromWireVerdict, PART_CHARS, PART_ITEMS, type PageToWorker, type WireVerdict, type WorkerToPage } from './engine-phases-protocol'

/** Raw outputs from this many chars (UTF-16 code units) up are parsed in the worker. */
export const OFFLOAD_PARSE_CHARS = 200_000
/** Turns with this many calls or more are validated in the worker (and any turn the worker parsed). */
export const OFFLOAD_VALIDATE_CALLS = 1000

/** The page's end of the worker: what a `Worker` has. */
export interface PhaseWorker {
  postMessage(message: PageToWorker): void
  onmessage: ((event: { data: WorkerToPage }) => void) | null
  onerror: ((event: unknown) => void) | null
  terminate(): void
}

export interface PhaseOffloadOptions {
  /** Starts a worker that runs `servePhases`; throws when workers are unavailable (then phases run in the page). */
  spawn(): PhaseWorker
  /** Waits before sending the next part of a long list to the worker (a macrotask, so the page can paint). */
  pause?: () => Promise<void>
}

/** The phase was given up (Stop, Reset, the playground closed): not retried in the page. */
class Cancelled extends Error {}

interface Pending {
  resolve(event: ParseCompleted | ValidateCompleted): void
  reject(error: Error): void
  items: unknown[]
  /** Readers of the wide arguments on their way, by the position of their call or verdict. */
  readers: Map<number, JsonPartsReader>
  /** Parts of the JSON texts of wide arguments read, by position and kind (see `value-json`). */
  texts: Map<string, string[]>
}

interface Live {
  worker: PhaseWorker
  pending: Map<number, Pending>
  /** The last parse this worker made: its request id and the calls array the page assembled from it. */
  held: { id: number; calls: ParseCompleted['calls'] } | null
  /** Why it was ended (cancelled, or it failed); `null` while it works. */
  ended: Error | null
}

/** A `PhaseRunner` that sends big turns to a worker from `options.spawn`. */
export function createPhaseOffload(options: PhaseOffloadOptions): PhaseRunner & { dispose(): void } {
  const pause = options.pause ?? nextTask
  let live: Live | null = null
  let nextId = 1

  function end(target: Live, reason: Error): void {
    target.worker.onmessage = null
    target.worker.onerror = null
    target.worker.terminate()
    target.ended = reason
    for (const pending of target.pending.values()) pending.reject(reason)
    target.pending.clear()
    if (live === target) live = null
  }

  function worker(): Live | null {
    if (live) return live
    let spawned: PhaseWorker
    try {
      spawned = options.spawn()
    } catch {
      return null
    }
    const target: Live = { worker: spawned, pending: new Map(), held: null, ended: null }
    spawned.onmessage = ({ data }) => {
      const pending = target.pending.get(data.id)
      if (!pending) return
      if (data.type === 'part') {
        for (const item of data.items) pending.items.push(item)
        return
      }
      if (data.type === 'value-part') {
        readArgumentsPart(target, data.id, pending, data)
        return
      }
      if (data.type === 'value-json') {
        readArgumentsText(pending, data)
        return
      }
      target.pending.delete(data.id)
      if (data.type === 'failed') {
        pending.reject(new Error(data.message))
        return
      }
      pending.resolve({ ...data.event, [data.field]: pending.items } as ParseCompleted | ValidateCompleted)
    }
    spawned.onerror = () => end(target, new Error('The engine-phase worker stopped.'))
    live = target
    return target
  }

  /** Keeps one part of a long text of an item; with the last, it is put in place: a call's `rawArguments`, or remembered for its arguments (see `rememberJson`). */
  function readArgumentsText(pending: Pending, data: Extract<WorkerToPage, { type: 'value-json' }>): void {
    const key = `${data.position} ${data.as}`
    const texts = pending.texts.get(key) ?? []
    texts.push(data.text)
    pending.texts.set(key, texts)
    if (!data.last) return
    pending.texts.delete(key)
    const item = pending.items[data.position] as { arguments?: object; rawArguments?: string } | undefined
    if (!item) return
    if (data.as === 'raw') item.rawArguments = texts.join('')
    else if (item.arguments !== undefined) rememberJson(item.arguments, texts.join(''), data.as)
  }

  /** Feeds one part of a call's (or verdict's) wide arguments; the last one puts them in it. A part that cannot be read fails the request. */
  function readArgumentsPart(target: Live, id: number, pending: Pending, data: Extract<WorkerToPage, { type: 'value-part' }>): void {
    try {
      let reader = pending.readers.get(data.position)
      if (!reader) pending.readers.set(data.position, (reader = readJsonParts()))
      reader.feed(data.part)
      if (!data.last) return
      pending.readers.delete(data.position)
      type Item = ParseCompleted['calls'][number]
      const item = pending.items[data.position] as Item | undefined
      if (!item) throw new Error(`nothing at position ${data.position}`)
      item.arguments = reader.value() as Item['arguments']
    } catch (error) {
      target.pending.delete(id)
      pending.reject(new Error(`The engine-phase worker sent arguments that could not be read: ${error instanceof Error ? error.message : String(error)}`))
    }
  }

  function request<T extends ParseCompleted | ValidateCompleted>(target: Live, id: number, message: PageToWorker): Promise<T> {
    const done = new Promise<T>((resolve, reject) => {
      target.pending.set(id, { resolve: resolve as Pending['resolve'], reject, items: [], readers: new Map(), texts: new Map() })
    })
    target.worker.postMessage(message)
    return done
  }

  /** `offloaded`, or the page's own phase when the worker failed (it could not load, it died): slower, never lost. */
  async function orInPage<T>(offloaded: () => Promise<T>, inPage: () => Promise<T>): Promise<T> {
    try {
      return await offloaded()
    } catch (error) {
      if (error instanceof Cancelled) throw error
      return inPage()
    }
  }

  /**
   * Posts `length` items (calls, or chars of a raw output) to `target` `size` at a time, one part
   * per task, so no one structured clone holds the page; throws if the worker ended meanwhile.
   */
  async function postInParts(target: Live, length: number, size: number, part: (at: number) => PageToWorker): Promise<void> {
    for (let at = 0; at < length; at += size) {
      if (at > 0) await pause()
      if (target.ended) throw target.ended
      target.worker.postMessage(part(at))
    }
  }

  async function validateOffloaded(input: Parameters<PhaseRunner['validate']>[0]): Promise<ValidateCompleted> {
    const calls = input.parse?.calls ?? []
    // Calls the worker parsed are validated there too, however few: they cost nothing to send
    // back (a token), and one call can hold megabytes of arguments to walk.
    const heldThere = calls.length > 0 && live?.held?.calls === calls
    const target = calls.length >= OFFLOAD_VALIDATE_CALLS || heldThere ? worker() : null
    if (!target || !input.parse) return inThreadPhases.validate(input)
    const id = nextId++
    const parse = { ...input.parse, calls: [] as [] }
    // The worker still holds these very calls when it made them; otherwise they go over in parts.
    let callsOf = id
    if (target.held?.calls === calls) callsOf = target.held.id
    else await postInParts(target, calls.length, PART_ITEMS, (at) => ({ type: 'calls-part', id, items: calls.slice(at, at + PART_ITEMS) }))
    const event = await request<ValidateCompleted>(target, id, { type: 'validate', id, input: { ...input, parse }, callsOf })
    return { ...event, verdicts: (event.verdicts as WireVerdict[]).map((verdict, position) => fromWireVerdict(verdict, calls, position)) }
  }

  return {
    async parse(input) {
      const target = (input.raw?.length ?? 0) >= OFFLOAD_PARSE_CHARS ? worker() : null
      if (!target) return inThreadPhases.parse(input)
      return orInPage(async () => {
        const id = nextId++
        const raw = input.raw ?? ''
        let message: PageToWorker = { type: 'parse', id, input }
        if (raw.length > PART_CHARS) {
          await postInParts(target, raw.length, PART_CHARS, (at) => ({ type: 'raw-part', id, text: raw.slice(at, at + PART_CHARS) }))
          message = { type: 'parse', id, input: { ...input, raw: '' }, rawInParts: true }
        }
        const event = await request<ParseCompleted>(target, id, message)
        target.held = { id, calls: event.calls }
        return event
      }, () => inThreadPhases.parse(input))
    },

    validate(input) {
      return orInPage(() => validateOffloaded(input), () => inThreadPhases.validate(input))
    },

    cancel() {
      if (live && live.pending.size > 0) end(live, new Cancelled('The phase was cancelled.'))
    },

    dispose() {
      if (live) end(live, new Cancelled('The playground was closed.'))
    },
  }
}

/** Starts the browser's engine-phase worker (a module worker). */
export function spawnPhaseWorker(): PhaseWorker {
  return new Worker(new URL('./engine-phases.worker.ts', import.meta.url), { type: 'module', name: 'toolstep-engine-phases' }) as unknown as PhaseWorker
}
