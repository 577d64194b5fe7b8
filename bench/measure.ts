/**
 * Timing and table helpers shared by the benchmark files.
 */

/**
 * The clock of every measurement, in milliseconds: wall-clock time, or with `--cpu` (or
 * `TOOLSTEP_BENCH_CPU=1`) the process's CPU time, for a machine other work keeps busy, where
 * waiting for a core would count against whichever contender was running. CPU time includes the
 * garbage collector's helper threads, so it errs on the side of parsers that allocate.
 */
export const cpuClock = process.argv.includes('--cpu') || process.env['TOOLSTEP_BENCH_CPU'] === '1'

/** The current time of the measurement clock, in milliseconds (see {@link cpuClock}). */
export function now(): number {
  if (!cpuClock) return performance.now()
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

/** Throughput of one parser over a set of inputs. */
export interface Measurement {
  /** Megabytes (10^6 UTF-16 code units) of input per second. */
  mbPerSecond: number
  /** Mean milliseconds per input. */
  msPerInput: number
}

/** One contender of {@link compare}: a parser and the inputs it runs over. */
export interface Contender {
  /** Runs the parser once over every input. */
  pass(): void
  /** Bytes (UTF-16 code units) and inputs one pass covers. */
  bytes: number
  count: number
}

/** A {@link Contender} running `run` over `inputs`, each counting `lengthOf(input)` bytes. */
export function contender<T>(inputs: readonly T[], lengthOf: (input: T) => number, run: (input: T) => void): Contender {
  return {
    pass: () => {
      for (const input of inputs) run(input)
    },
    bytes: inputs.reduce((sum, input) => sum + lengthOf(input), 0),
    count: inputs.length,
  }
}

/**
 * Measures contenders side by side: `rounds` rounds, each running every contender for at least
 * `roundMs`, in turn, after one warm-up pass each. Each contender's best round is kept, so a
 * burst of load from other processes on a shared machine hits every contender alike and is then
 * discarded.
 */
export function compare(contenders: readonly Contender[], rounds = 9, roundMs = 80): Measurement[] {
  const best: Measurement[] = contenders.map(() => ({ mbPerSecond: 0, msPerInput: Number.POSITIVE_INFINITY }))
  for (const entry of contenders) entry.pass()
  for (let round = 0; round < rounds; round++) {
    contenders.forEach((entry, index) => {
      let passes = 0
      const started = now()
      let elapsed = 0
      do {
        entry.pass()
        passes++
        elapsed = now() - started
      } while (elapsed < roundMs)
      const mbPerSecond = (entry.bytes * passes) / 1e6 / (elapsed / 1000)
      if (mbPerSecond > (best[index]?.mbPerSecond ?? 0)) best[index] = { mbPerSecond, msPerInput: elapsed / (passes * entry.count) }
    })
  }
  return best
}

/** Splits `text` into chunks of `size` code units. */
export function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = []
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size))
  return chunks
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]))
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = Object.keys(left)
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]))
}

/** Renders rows as a Markdown table (also readable in a terminal). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [line(header), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...rows.map(line)].join('\n')
}

/** A number with a sensible count of digits for a table. */
export function fixed(value: number): string {
  if (!Number.isFinite(value)) return '—'
  if (value >= 100) return value.toFixed(0)
  if (value >= 10) return value.toFixed(1)
  return value.toFixed(2)
}
