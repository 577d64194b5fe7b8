/**
 * A cap on what user code in the CLI sandbox's child prints (`console.log`, `process.stdout.write`,
 * the same on stderr). The child's stdout and stderr are pipes to the host, and a write to a pipe
 * the host has not drained yet is kept in the child's memory, outside its heap cap: a tool printing
 * 200 000 lines of 1 KB would hold 200 MB there and be stopped by the memory watchdog (or blamed
 * on whatever ran next). So each request from the host (a batch of tool calls, a model turn, a
 * load) may print {@link LOG_LIMIT_BYTES}; past it whole writes are dropped and counted, and a
 * line on stderr says how much was dropped, once the code pauses and again at the next request.
 */

/** What one request may print before the rest is dropped, bytes (stdout and stderr together). */
export const LOG_LIMIT_BYTES = 1024 * 1024

/** A stream whose `write` the cap replaces (`process.stdout`, `process.stderr`). */
interface WritableLike {
  write(...args: unknown[]): boolean
}

/** The cap installed by {@link capLogs}. */
export interface LogCap {
  /** Starts a new request's budget, first saying what the last one dropped (if anything). */
  nextRequest(): void
}

/** "1.5 MB", "300 KB", "12 bytes". */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} byte${bytes === 1 ? '' : 's'}`
}

/**
 * Replaces `write` on `streams` (each made read-only, so user code cannot put the original back)
 * with one that passes writes on while the request's output is within `limitBytes`, and drops
 * the rest. Call before user code loads. The line about dropped output goes to the last stream.
 */
export function capLogs(streams: readonly WritableLike[], limitBytes: number = LOG_LIMIT_BYTES): LogCap {
  // Captured before user code loads: it shares this realm and may replace the globals.
  const byteLength = Buffer.byteLength
  const isBuffer = ArrayBuffer.isView
  const apply = Reflect.apply
  const later = setTimeout
  const cancel = clearTimeout
  const nextTick = process.nextTick
  const originals = streams.map((stream) => stream.write)
  // The line about dropped output goes to the last stream (stderr), past the cap.
  const noteStream = streams[streams.length - 1]
  const noteWrite = originals[originals.length - 1]
  let used = 0
  let dropped = 0
  let told = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const tell = () => {
    timer = undefined
    if (dropped === told || !noteStream || !noteWrite) return
    const more = told > 0 ? ' more' : ''
    apply(noteWrite, noteStream, [`[toolstep] ${formatBytes(dropped - told)}${more} of console output dropped: the sandbox passes on the first ${formatBytes(limitBytes)} per load, model turn or turn of tool calls.\n`])
    told = dropped
  }

  streams.forEach((stream, index) => {
    const original = originals[index] as (...args: unknown[]) => boolean
    const write = function (this: unknown, ...args: unknown[]): boolean {
      const [chunk, encoding] = args
      const size = typeof chunk === 'string' ? byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : isBuffer(chunk) ? chunk.byteLength : 0
      if (used + size <= limitBytes) {
        used += size
        return apply(original, this, args) as boolean
      }
      dropped += size
      // Said once the code pauses, with how much it dropped until then.
      timer ??= later(tell, 0)
      const callback = args[args.length - 1]
      if (typeof callback === 'function') nextTick(callback as () => void)
      return true
    }
    Object.defineProperty(stream, 'write', { value: write, writable: false, configurable: false, enumerable: true })
  })

  return {
    nextRequest() {
      cancel(timer)
      tell()
      used = 0
      dropped = 0
      told = 0
    },
  }
}
