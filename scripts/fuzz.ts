/**
 * `npm run fuzz [-- --inputs N --seed S]`: feeds mutated model outputs to every protocol's
 * `parse` and to the stream parser, and reports exceptions and slow inputs.
 *
 * Budget (issue 3): no exception, and no input of at most 10 KB takes more than 5 ms in one parse.
 * An input over budget is timed again (best of 5) before it counts, so a GC pause is not reported
 * as a pathological input. Slowest inputs are written to bench-results/fuzz-slowest.json.
 * Exit code 1 when an exception or a confirmed slow input was found.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createFuzzer, randomChunks, seededRandom } from '../src/test/fuzz-inputs'
import { protocols } from '../src/core/protocols/index'
import { createStreamParser } from '../src/core/protocols/index'

const BUDGET_MS = 5
/** First-pass timings include JIT warm-up and GC; this many candidates are re-timed before ranking. */
const KEPT = 50

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN
  return Number.isFinite(value) ? value : fallback
}

const inputs = option('inputs', 100_000)
const seed = option('seed', 20_260_101)

interface Slow {
  index: number
  target: string
  ms: number
  length: number
  raw: string
  /** Runs the same parse again (same chunking for the stream parser). */
  run: () => void
}

function streamAll(protocolId: string, pieces: readonly string[]): void {
  const parser = createStreamParser(protocolId)
  for (const piece of pieces) parser.push(piece)
  parser.end()
}

/** Best of `runs` timings of `run`, in milliseconds. */
function bestOf(runs: number, run: () => void): number {
  let best = Number.POSITIVE_INFINITY
  for (let index = 0; index < runs; index++) {
    const started = performance.now()
    run()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

const nextInput = createFuzzer(seed)
const next = seededRandom(seed ^ 0x5eed)
const crashes: { index: number; target: string; error: string; raw: string }[] = []
const slowest: Slow[] = []
const confirmedSlow: Slow[] = []
let parses = 0
let bytes = 0
let parseTime = 0
const started = performance.now()

const keepSlowest = (entry: Slow): void => {
  slowest.push(entry)
  slowest.sort((a, b) => b.ms - a.ms)
  if (slowest.length > KEPT) slowest.length = KEPT
}

for (let index = 0; index < inputs; index++) {
  const raw = nextInput()
  bytes += raw.length
  const targets: { target: string; run: () => void }[] = protocols.map((protocol) => ({ target: protocol.id, run: () => void protocol.parse(raw) }))
  const streamed = protocols[index % protocols.length]
  if (streamed) {
    const pieces = randomChunks(raw, next)
    targets.push({ target: `stream:${streamed.id} (${pieces.length} chunks)`, run: () => streamAll(streamed.id, pieces) })
  }
  for (const { target, run } of targets) {
    let ms: number
    try {
      const at = performance.now()
      run()
      ms = performance.now() - at
    } catch (error) {
      crashes.push({ index, target, error: error instanceof Error ? (error.stack ?? error.message) : String(error), raw })
      continue
    }
    parses++
    parseTime += ms
    if (slowest.length < KEPT || ms > (slowest[slowest.length - 1]?.ms ?? 0)) keepSlowest({ index, target, ms, length: raw.length, raw, run })
    if (ms > BUDGET_MS) {
      const again = bestOf(5, run)
      if (again > BUDGET_MS) confirmedSlow.push({ index, target, ms: again, length: raw.length, raw, run })
    }
  }
  if ((index + 1) % 10_000 === 0 || index + 1 === inputs) {
    const elapsed = (performance.now() - started) / 1000
    console.log(`${String(index + 1).padStart(7)} inputs  ${parses} parses  ${elapsed.toFixed(1)} s  crashes ${crashes.length}  over ${BUDGET_MS} ms ${confirmedSlow.length}`)
  }
}

// Re-time the slowest so the report shows steady-state cost, not the first-run noise.
for (const entry of slowest) entry.ms = Math.min(entry.ms, bestOf(5, entry.run))
slowest.sort((a, b) => b.ms - a.ms)
slowest.length = Math.min(slowest.length, 10)

console.log(`\n${inputs} inputs (seed ${seed}), ${parses} parses, ${(bytes / 1e6).toFixed(1)} MB of input, mean ${((parseTime / parses) * 1000).toFixed(1)} µs per parse`)
console.log(`exceptions: ${crashes.length}; inputs over ${BUDGET_MS} ms (best of 5): ${confirmedSlow.length}`)
console.log('\nslowest (best of 5):')
for (const entry of slowest) {
  console.log(`  ${entry.ms.toFixed(3).padStart(8)} ms  ${String(entry.length).padStart(6)} chars  input ${String(entry.index).padStart(6)}  ${entry.target}  ${JSON.stringify(entry.raw.slice(0, 60))}`)
}
for (const crash of crashes.slice(0, 10)) console.log(`\nexception in ${crash.target} on input ${crash.index}: ${JSON.stringify(crash.raw.slice(0, 200))}\n${crash.error}`)

mkdirSync('bench-results', { recursive: true })
const plain = (entries: readonly Slow[]) => entries.map(({ index, target, ms, length, raw }) => ({ index, target, ms, length, raw }))
writeFileSync('bench-results/fuzz-slowest.json', JSON.stringify({ seed, inputs, crashes, confirmedSlow: plain(confirmedSlow), slowest: plain(slowest) }, null, 2))
console.log('\nwrote bench-results/fuzz-slowest.json')
process.exitCode = crashes.length > 0 || confirmedSlow.length > 0 ? 1 : 0
