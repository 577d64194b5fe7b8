/**
 * Which tool call's code the Node sandbox is running, readable by the host while the sandbox is
 * blocked. A synchronous endless loop stops the sandbox's event loop, so it cannot say anything
 * any more; the host must then know which of the parallel calls of a batch is to blame, and
 * which ones were merely waiting (an innocent `send_email` must not be reported as timed out and
 * retried). So every time the code of another call starts running, its label is written out at
 * once, synchronously, to a place the host reads without the sandbox's help: a shared buffer
 * (worker thread) or a file both processes hold open (child process).
 *
 * "Starts running" covers a call's first synchronous part and every continuation after an
 * `await` or a timer: the label rides along with the call's async context (AsyncLocalStorage),
 * and an async_hooks `before` callback, run before every callback and promise continuation, reads
 * it. Only changes are written, so a call that runs on is one write.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks'
import { readSync, writeSync } from 'node:fs'

/** Labels the code of tool calls while batches of them run. */
export interface CallTracker {
  /**
   * Starts tracking for one batch; call the returned function when the batch is over. Tracking
   * costs every callback and promise continuation a hook call, so it is on only while a batch
   * with more than one call is open (a lone call needs no telling apart). `beforeSwitch` is
   * called, while this batch is open, each time the code of another call is about to run (before
   * its label is written): the batch reports what has finished then, in case that code blocks.
   */
  open(beforeSwitch?: () => void): () => void
  /**
   * Writes `label` at once, outside any call (the child marks each request it takes in, so the host
   * can tell a request that never got in from one that hangs); the next call's code is labelled anew.
   */
  mark(label: string): void
  /** Runs `work` as the call `label` (and its later continuations too). Returns what `work` returns. */
  run<T>(label: string, work: () => T): T
}

/** Labels longer than this are cut (they are `requestId#index`, far shorter). */
const MAX_LABEL_CHARS = 200

/**
 * Creates a tracker; `write` is given each new label. Hooks are process- (thread-) wide, so make
 * one per sandbox, before user code loads. Exceptions from `write` are swallowed: an error in an
 * async hook would end the process.
 */
export function createCallTracker(write: (label: string) => void): CallTracker {
  const storage = new AsyncLocalStorage<string>()
  // Captured before user code loads: patching the prototype later must not change what is read.
  const getStore = AsyncLocalStorage.prototype.getStore
  const run = AsyncLocalStorage.prototype.run
  const disable = AsyncLocalStorage.prototype.disable
  const apply = Reflect.apply
  let last: string | undefined
  let openBatches = 0
  const listeners = new Set<() => void>()
  const note = (label: string | undefined) => {
    if (label === undefined || label === last) return
    last = label
    for (const listener of listeners) {
      try {
        listener()
      } catch {
        // As below: an error here would end the process.
      }
    }
    try {
      write(label)
    } catch {
      // The host then blames by its own reckoning; nothing here may throw.
    }
  }
  const hook = createHook({
    before() {
      note(apply(getStore, storage, []) as string | undefined)
    },
  })
  const enable = hook.enable.bind(hook)
  const stop = hook.disable.bind(hook)
  return {
    open(beforeSwitch) {
      if (openBatches++ === 0) enable()
      // A wrapper of its own, so the same function given twice is still two listeners.
      const listener = beforeSwitch && (() => beforeSwitch())
      if (listener) listeners.add(listener)
      let closed = false
      return () => {
        if (closed) return
        closed = true
        if (listener) listeners.delete(listener)
        if (--openBatches > 0) return
        stop()
        apply(disable, storage, [])
        last = undefined
      }
    },
    mark(label) {
      note(label)
    },
    run(label, work) {
      if (openBatches === 0) return work()
      note(label)
      return apply(run, storage, [label, work]) as ReturnType<typeof work>
    },
  }
}

/** Bytes of one label record in a file ({@link fdLabelWriter}): a 2-byte length, then UTF-8. */
export const FILE_LABEL_BYTES = 2 + 3 * MAX_LABEL_CHARS

/**
 * A writer to file descriptor `fd` (a file the host also holds open): each label overwrites the
 * record at offset 0, so the file stays one record long and a write costs no more than a copy
 * into the page cache (a pipe or socket would cost several times more per call).
 */
export function fdLabelWriter(fd: number): (label: string) => void {
  const record = Buffer.alloc(FILE_LABEL_BYTES)
  // Captured before user code loads, like everything the hooks use.
  const write = Buffer.prototype.write
  const writeLength = Buffer.prototype.writeUInt16LE
  const apply = Reflect.apply
  // The real one: the sandbox then refuses this descriptor to user code through `node:fs`.
  const writeRecord = writeSync
  return (label) => {
    const length = apply(write, record, [label.slice(0, MAX_LABEL_CHARS), 2, 'utf8']) as number
    apply(writeLength, record, [length, 0])
    writeRecord(fd, record, 0, 2 + length, 0)
  }
}

/** The label in the record `fd` holds (see {@link fdLabelWriter}), or undefined if none. */
export function readFileLabel(fd: number): string | undefined {
  const record = Buffer.alloc(FILE_LABEL_BYTES)
  let read: number
  try {
    read = readSync(fd, record, 0, FILE_LABEL_BYTES, 0)
  } catch {
    return undefined
  }
  if (read < 2) return undefined
  const length = Math.min(record.readUInt16LE(0), read - 2)
  return length > 0 ? record.toString('utf8', 2, 2 + length) : undefined
}

/** Bytes of the shared buffer {@link sharedLabelWriter} and {@link readSharedLabel} use. */
export const SHARED_LABEL_BYTES = 4 + 2 * MAX_LABEL_CHARS

/**
 * A writer into `buffer` (a SharedArrayBuffer of {@link SHARED_LABEL_BYTES}): the length, then
 * the UTF-16 code units. The host reads it only once the writer is silent, so no lock is needed.
 */
export function sharedLabelWriter(buffer: SharedArrayBuffer): (label: string) => void {
  const length = new Int32Array(buffer, 0, 1)
  const chars = new Uint16Array(buffer, 4, MAX_LABEL_CHARS)
  return (label) => {
    const text = label.slice(0, MAX_LABEL_CHARS)
    for (let index = 0; index < text.length; index++) chars[index] = text.charCodeAt(index)
    Atomics.store(length, 0, text.length)
  }
}

/** The label last written into `buffer` by {@link sharedLabelWriter}, or undefined if none. */
export function readSharedLabel(buffer: SharedArrayBuffer): string | undefined {
  const length = Atomics.load(new Int32Array(buffer, 0, 1), 0)
  if (length <= 0) return undefined
  return String.fromCharCode(...new Uint16Array(buffer, 4, Math.min(length, MAX_LABEL_CHARS)))
}

/** The sandbox child's file descriptor for call labels (stdio index 4: after stdin, stdout, stderr and IPC). */
export const CALL_LABEL_FD = 4

