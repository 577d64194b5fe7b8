/**
 * `npx tsx scripts/worst-case.ts [-- --size CHARS --only ID --chunk CHARS --modes parse,stream --generators base,prefixes,… --cpu]`:
 * parses every hostile input of `bench/hostile.ts` (1 MB by default; the generated families hold
 * thousands of inputs, so search them at `--size 65536` and confirm the worst at 1 MB) with every
 * protocol's one-shot parser (`auto` included) and its stream parser, and prints the slowest
 * inputs per parser in ms per MB next to the parser's typical throughput (its own rendering of a
 * generated call of the same size). `--cpu` times with the process's CPU time instead of the
 * clock, for a machine that other work keeps busy (it counts the garbage collector's helper
 * threads too, so it errs on the slow side).
 *
 * Goal (issue 11 item 9): every parser ≤ 0.3 s per MB on any input, and within a small constant
 * of its typical throughput. Exit code 1 when an input is over 0.3 s per MB.
 */
import { createStreamParser, protocols } from '../src/core/protocols/index'
import { generateCalls } from '../bench/generate'
import { GENERATORS, hostileInputs, type GeneratorName } from '../bench/hostile'

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1] : undefined
}

const size = Number(option('size') ?? 1 << 20)
const only = option('only')
const chunk = Number(option('chunk') ?? 1024)
const modes = (option('modes') ?? 'parse,stream').split(',')
const generators = (option('generators') ?? GENERATORS.join(',')).split(',').filter((name): name is GeneratorName => (GENERATORS as readonly string[]).includes(name))
const GOAL_MS_PER_MB = 300
const MB = 1 << 20

const cpu = process.argv.includes('--cpu')

function bestMs(run: () => void, runs: number): number {
  let best = Number.POSITIVE_INFINITY
  for (let index = 0; index < runs; index++) {
    const started = performance.now()
    const startedCpu = process.cpuUsage()
    run()
    const used = process.cpuUsage(startedCpu)
    best = Math.min(best, cpu ? (used.user + used.system) / 1000 : performance.now() - started)
  }
  return best
}

function stream(id: string, raw: string): void {
  const parser = createStreamParser(id)
  for (let at = 0; at < raw.length; at += chunk) parser.push(raw.slice(at, at + chunk))
  parser.end()
}

const inputs = hostileInputs(size, generators)
const call = generateCalls(size, 1, 0x3c_0001)[0]
let over = 0
console.log(`${inputs.length} hostile inputs (${generators.join(', ')}) of ~${size} chars; stream chunks of ${chunk} chars; ${cpu ? 'CPU time' : 'wall-clock time'}`)
for (const protocol of protocols) {
  if (only !== undefined && protocol.id !== only) continue
  const typical = call ? protocol.render({ text: 'Sure.', calls: [{ name: call.name, arguments: call.arguments }] }) : 'x'
  for (const [mode, run] of [
    ['parse', (raw: string) => void protocol.parse(raw)],
    ['stream', (raw: string) => stream(protocol.id, raw)],
  ] as const) {
    if (!modes.includes(mode)) continue
    const typicalMsPerMb = (bestMs(() => run(typical), 3) / typical.length) * MB
    const timed: { label: string; msPerMb: number }[] = []
    for (const [label, raw] of inputs) {
      // One run first; only the slow ones are timed again (best of 3) so a GC pause does not count.
      let ms = bestMs(() => run(raw), 1)
      if ((ms / raw.length) * MB > 3 * typicalMsPerMb) ms = Math.min(ms, bestMs(() => run(raw), 2))
      timed.push({ label, msPerMb: (ms / raw.length) * MB })
    }
    timed.sort((a, b) => b.msPerMb - a.msPerMb)
    const worst = timed.slice(0, 3)
    for (const entry of timed) if (entry.msPerMb > GOAL_MS_PER_MB) over++
    console.log(
      `${`${protocol.id} ${mode}`.padEnd(22)} typical ${typicalMsPerMb.toFixed(1).padStart(6)} ms/MB  worst: ${worst.map((entry) => `${entry.msPerMb.toFixed(1)} ms/MB (${(entry.msPerMb / typicalMsPerMb).toFixed(1)}×) ${entry.label}`).join(' | ')}`,
    )
  }
}
console.log(`\ninputs over ${GOAL_MS_PER_MB} ms/MB: ${over}`)
process.exitCode = over > 0 ? 1 : 0
