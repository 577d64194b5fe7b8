/**
 * Parse benchmark (issue 3): Toolstep's `json` protocol and stream parser against `JSON.parse`,
 * `jsonrepair`, `partial-json` and `@streamparser/json` on generated tool-call outputs of about
 * 200 B, 2 KB and 200 KB. Prints a table and writes it to bench-results/parse.md.
 *
 * "Recovered" counts inputs whose call (name and arguments) came back exactly as generated.
 */
import { JSONParser } from '@streamparser/json'
import { jsonrepair } from 'jsonrepair'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { Allow, parse as parsePartial } from 'partial-json'
import { json } from '../src/core/protocols/json'
import { auto, createStreamParser, protocols } from '../src/core/protocols/index'
import { generateCalls, type GeneratedCall } from './generate'
import { chunksOf, compare, contender, cpuClock, fixed, now, sameJson, table, type Measurement } from './measure'

interface Size {
  label: string
  bytes: number
  count: number
}

const SIZES: readonly Size[] = [
  { label: '200 B', bytes: 200, count: 64 },
  { label: '2 KB', bytes: 2048, count: 32 },
  { label: '200 KB', bytes: 204_800, count: 3 },
]
const CHUNKINGS = [16, 4] as const
/** partial-json re-parses the whole buffer per chunk; runs longer than this are extrapolated. */
const QUADRATIC_DEADLINE_MS = 4000

interface Row {
  scenario: string
  size: string
  parser: string
  result: Measurement | undefined
  /** Milliseconds per input when extrapolated instead of measured. */
  estimatedMs?: number
  recovered: string
  /** Throughput relative to the scenario's baseline (ours / baseline). */
  ratio?: string
}

const rows: Row[] = []
const checks: { target: string; figure: string; met: boolean }[] = []

/** True when `value` is `{"tool": name, "arguments": args}` for `call`. */
function isCall(value: unknown, call: GeneratedCall): boolean {
  if (typeof value !== 'object' || value === null) return false
  const object = value as Record<string, unknown>
  return object.tool === call.name && sameJson(object.arguments, call.arguments)
}

function recoveredByOurs(raw: string, call: GeneratedCall): boolean {
  return recoveredBy(json, raw, call)
}

function recoveredBy(protocol: { parse(raw: string): ReturnType<typeof json.parse> }, raw: string, call: GeneratedCall): boolean {
  const result = protocol.parse(raw)
  const first = result.calls[0]
  return result.calls.length === 1 && first?.name === call.name && sameJson(first.arguments, call.arguments)
}

function count(calls: readonly GeneratedCall[], ok: (call: GeneratedCall) => boolean): number {
  let total = 0
  for (const call of calls) {
    try {
      if (ok(call)) total++
    } catch {
      // A baseline that throws did not recover the input.
    }
  }
  return total
}

function attempt(run: () => void): void {
  try {
    run()
  } catch {
    // Failures are counted separately; the timing includes the failed attempt.
  }
}

const FENCE = /```(?:json)?[ \t]*\n([\s\S]*?)\n```/

function streamOurs(chunks: readonly string[]): ReturnType<ReturnType<typeof createStreamParser>['end']> {
  const parser = createStreamParser('json')
  for (const chunk of chunks) parser.push(chunk)
  return parser.end()
}

function streamPartialJson(chunks: readonly string[], deadline = Number.POSITIVE_INFINITY): { value: unknown; done: number } {
  let buffer = ''
  let value: unknown
  const started = performance.now()
  for (let index = 0; index < chunks.length; index++) {
    buffer += chunks[index]
    try {
      value = parsePartial(buffer, Allow.ALL)
    } catch {
      value = undefined
    }
    if ((index & 63) === 0 && performance.now() - started > deadline) return { value, done: index + 1 }
  }
  return { value, done: chunks.length }
}

function streamParserJson(chunks: readonly string[]): unknown {
  const parser = new JSONParser()
  let root: unknown
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) root = value
  }
  for (const chunk of chunks) parser.write(chunk)
  // Without a separator the parser ends by itself after the root value; end() would then throw.
  if (!parser.isEnded) parser.end()
  return root
}

const perInput = new Map<string, number>()

function add(row: Row): void {
  rows.push(row)
  const ms = row.estimatedMs ?? row.result?.msPerInput
  if (ms !== undefined) perInput.set(`${row.scenario}|${row.size}|${row.parser}`, ms)
  console.log(`  ${row.scenario.padEnd(18)} ${row.size.padEnd(7)} ${row.parser.padEnd(28)} ${row.result ? `${fixed(row.result.mbPerSecond)} MB/s` : row.estimatedMs !== undefined ? `~${fixed(row.estimatedMs)} ms/input (est.)` : ''}  ${row.recovered}${row.ratio ? `  ${row.ratio}` : ''}`)
}

const ratio = (ours: Measurement, baseline: Measurement): number => ours.mbPerSecond / baseline.mbPerSecond

// Other processes on a shared machine slow every contender; the load is printed with the figures.
const loadavgAtStart = loadavg()[0] ?? 0
console.log('parse benchmark: generating inputs')
for (const size of SIZES) {
  const calls = generateCalls(size.bytes, size.count, 0xbe_9c + size.bytes)
  const total = `/${calls.length}`
  const meanBytes = Math.round(calls.reduce((sum, call) => sum + call.clean.length, 0) / calls.length)
  console.log(`\n${size.label} (${calls.length} inputs, mean ${meanBytes} chars of compact JSON)`)

  const clean = (call: GeneratedCall): number => call.clean.length
  const fenced = (call: GeneratedCall): number => call.fenced.length
  const broken = (call: GeneratedCall): number => call.broken.length
  // Each scenario is timed against its own baseline, interleaved, so one parser's garbage is not
  // collected during another scenario's rounds.
  // Clean JSON: the whole output is the call.
  const [cleanBaseline, cleanOurs, cleanAuto] = compare([
    contender(calls, clean, (call) => JSON.parse(call.clean)),
    contender(calls, clean, (call) => json.parse(call.clean)),
    contender(calls, clean, (call) => auto.parse(call.clean)),
  ]) as [Measurement, Measurement, Measurement]
  // JSON in prose with a fence: the usual hand-written approach is a fence regex, then JSON.parse.
  const [fencedBaseline, fencedOurs, fencedAuto] = compare([
    contender(calls, fenced, (call) => JSON.parse(FENCE.exec(call.fenced)?.[1] ?? '')),
    contender(calls, fenced, (call) => json.parse(call.fenced)),
    contender(calls, fenced, (call) => auto.parse(call.fenced)),
  ]) as [Measurement, Measurement, Measurement]
  // Broken JSON: Python quoting and literals, trailing commas, missing closers.
  const [brokenBaseline, brokenOurs] = compare([
    contender(calls, broken, (call) => attempt(() => JSON.parse(jsonrepair(call.broken)))),
    contender(calls, broken, (call) => json.parse(call.broken)),
  ]) as [Measurement, Measurement]
  add({ scenario: 'clean', size: size.label, parser: 'JSON.parse', result: cleanBaseline, recovered: `${count(calls, (call) => isCall(JSON.parse(call.clean), call))}${total}` })
  add({ scenario: 'clean', size: size.label, parser: 'toolstep json', result: cleanOurs, recovered: `${count(calls, (call) => recoveredByOurs(call.clean, call))}${total}`, ratio: `${fixed(ratio(cleanOurs, cleanBaseline))}× JSON.parse` })
  add({ scenario: 'clean', size: size.label, parser: 'toolstep auto', result: cleanAuto, recovered: `${count(calls, (call) => recoveredBy(auto, call.clean, call))}${total}`, ratio: `${fixed(ratio(cleanAuto, cleanBaseline))}× JSON.parse` })
  add({ scenario: 'fenced in prose', size: size.label, parser: 'regex + JSON.parse', result: fencedBaseline, recovered: `${count(calls, (call) => isCall(JSON.parse(FENCE.exec(call.fenced)?.[1] ?? ''), call))}${total}` })
  add({ scenario: 'fenced in prose', size: size.label, parser: 'toolstep json', result: fencedOurs, recovered: `${count(calls, (call) => recoveredByOurs(call.fenced, call))}${total}`, ratio: `${fixed(ratio(fencedOurs, fencedBaseline))}× regex + JSON.parse` })
  add({ scenario: 'fenced in prose', size: size.label, parser: 'toolstep auto', result: fencedAuto, recovered: `${count(calls, (call) => recoveredBy(auto, call.fenced, call))}${total}`, ratio: `${fixed(ratio(fencedAuto, fencedBaseline))}× regex + JSON.parse` })
  const repairedCount = count(calls, (call) => isCall(JSON.parse(jsonrepair(call.broken)), call))
  add({ scenario: 'broken', size: size.label, parser: 'jsonrepair + JSON.parse', result: brokenBaseline, recovered: `${repairedCount}${total}` })
  const brokenCount = count(calls, (call) => recoveredByOurs(call.broken, call))
  add({ scenario: 'broken', size: size.label, parser: 'toolstep json', result: brokenOurs, recovered: `${brokenCount}${total}`, ratio: `${fixed(ratio(brokenOurs, brokenBaseline))}× jsonrepair` })

  if (size.bytes >= 2048) {
    const cleanRatio = ratio(cleanOurs, cleanBaseline)
    const fencedRatio = ratio(fencedOurs, fencedBaseline)
    checks.push({ target: `clean ${size.label}: ≥ 0.5× JSON.parse`, figure: `${fixed(cleanRatio)}×`, met: cleanRatio >= 0.5 })
    // The issue states the fenced target against JSON.parse's throughput (which cannot read a fenced
    // output at all); the same-input comparison with a fence regex + JSON.parse is stricter. Both are shown.
    const fencedVsFloor = fencedOurs.mbPerSecond / cleanBaseline.mbPerSecond
    checks.push({
      target: `fenced ${size.label}: ≥ 0.5× JSON.parse (clean) throughput`,
      figure: `${fixed(fencedVsFloor)}× (stricter, same input: ${fixed(fencedRatio)}× regex + JSON.parse)`,
      met: fencedVsFloor >= 0.5,
    })
  }
  // `auto` is the default in many places, so detection must stay cheap. Like json's targets,
  // from 2 KB: at 200 B a fixed cost per output dominates every parser but JSON.parse.
  if (size.bytes >= 2048) {
    const cleanAutoRatio = ratio(cleanAuto, cleanBaseline)
    const fencedAutoRatio = fencedAuto.mbPerSecond / cleanBaseline.mbPerSecond
    checks.push({ target: `auto clean ${size.label}: ≥ 0.4× JSON.parse`, figure: `${fixed(cleanAutoRatio)}×`, met: cleanAutoRatio >= 0.4 })
    checks.push({ target: `auto fenced ${size.label}: ≥ 0.4× JSON.parse (clean) throughput`, figure: `${fixed(fencedAutoRatio)}× (same input: ${fixed(ratio(fencedAuto, fencedBaseline))}× regex + JSON.parse)`, met: fencedAutoRatio >= 0.4 })
  }
  const brokenRatio = ratio(brokenOurs, brokenBaseline)
  checks.push({ target: `broken ${size.label}: ≥ 2× jsonrepair, recovered ≥ jsonrepair`, figure: `${fixed(brokenRatio)}×, ${brokenCount} vs ${repairedCount}`, met: brokenRatio >= 2 && brokenCount >= repairedCount })

  // Streaming: the clean call arriving in fixed-size chunks; every parser sees the same chunks.
  for (const chunkSize of CHUNKINGS) {
    const scenario = `stream ${chunkSize} B`
    const inputs = calls.map((call) => ({ call, chunks: chunksOf(call.clean, chunkSize) }))
    const lengthOf = (input: { call: GeneratedCall }): number => input.call.clean.length
    const [incremental, ours] = compare([contender(inputs, lengthOf, (input) => streamParserJson(input.chunks)), contender(inputs, lengthOf, (input) => streamOurs(input.chunks))]) as [Measurement, Measurement]
    add({ scenario, size: size.label, parser: '@streamparser/json', result: incremental, recovered: `${count(calls, (call) => isCall(streamParserJson(chunksOf(call.clean, chunkSize)), call))}${total}` })

    const first = inputs[0]
    if (first) {
      const probe = performance.now()
      const partial = streamPartialJson(first.chunks, QUADRATIC_DEADLINE_MS)
      const probeMs = performance.now() - probe
      if (partial.done < first.chunks.length) {
        // Re-parsing after every chunk costs ~ k² for the first k chunks: extrapolate to all of them.
        const estimate = probeMs * (first.chunks.length / partial.done) ** 2
        add({ scenario, size: size.label, parser: 'partial-json, re-parse/chunk', result: undefined, estimatedMs: estimate, recovered: 'not run to the end' })
      } else {
        const [reparsed] = compare([contender(inputs, lengthOf, (input) => streamPartialJson(input.chunks))], 3) as [Measurement]
        add({ scenario, size: size.label, parser: 'partial-json, re-parse/chunk', result: reparsed, recovered: `${count(calls, (call) => isCall(streamPartialJson(chunksOf(call.clean, chunkSize)).value, call))}${total}` })
      }
    }

    const streamed = count(calls, (call) => {
      const result = streamOurs(chunksOf(call.clean, chunkSize))
      return result.calls.length === 1 && result.calls[0]?.name === call.name && sameJson(result.calls[0].arguments, call.arguments)
    })
    const costRatio = ours.msPerInput / incremental.msPerInput
    add({ scenario, size: size.label, parser: 'toolstep stream', result: ours, recovered: `${streamed}${total}`, ratio: `${fixed(costRatio)}× the time of @streamparser/json` })
    checks.push({ target: `${scenario} ${size.label}: ≤ 1.5× @streamparser/json time`, figure: `${fixed(costRatio)}×`, met: costRatio <= 1.5 })
  }
}

// Linearity: cost per input at 200 KB against 2 KB, scaled to exactly 100× the bytes.
for (const chunkSize of CHUNKINGS) {
  const scenario = `stream ${chunkSize} B`
  const small = perInput.get(`${scenario}|2 KB|toolstep stream`)
  const large = perInput.get(`${scenario}|200 KB|toolstep stream`)
  if (small !== undefined && large !== undefined) {
    const smallBytes = generateCalls(2048, 32, 0xbe_9c + 2048).reduce((sum, call) => sum + call.clean.length, 0) / 32
    const largeBytes = generateCalls(204_800, 3, 0xbe_9c + 204_800).reduce((sum, call) => sum + call.clean.length, 0) / 3
    const scaled = (large / small) * ((smallBytes * 100) / largeBytes)
    checks.push({ target: `${scenario}: 200 KB costs ≤ 120× 2 KB`, figure: `${fixed(scaled)}× (per 100× bytes)`, met: scaled <= 120 })
  }
}

// Worst cases (issue 11 item 9): hostile inputs of 1 MB against a typical output of the same size
// in each format (its own rendering of a generated call), parsed one-shot by every protocol.
const MB = 1 << 20
const WORST: ReadonlyArray<readonly [label: string, raw: string]> = [
  ['1 MB of {', '{'.repeat(MB)],
  ['512K × {"', '{"'.repeat(MB / 2)],
  ["512K × {'", "{'".repeat(MB / 2)],
  ['1 MB of [', '['.repeat(MB)],
  ['512K × [{', '[{'.repeat(MB / 2)],
  ['1 MB of <', '<'.repeat(MB)],
  ['512K × f(', 'f('.repeat(MB / 2)],
  ['128K × f(a=', 'f(a='.repeat(MB / 4)],
  ['1 MB of "', '"'.repeat(MB)],
  ['96K × <tool_call>', '<tool_call>'.repeat(Math.floor(MB / 11))],
  // The worst of bench/hostile.ts (`npx tsx scripts/worst-case.ts` ranks them per parser).
  ['70K × "tool_calls": [', '"tool_calls": ['.repeat(Math.floor(MB / 15))],
  ['48K × [{"type": "function",', '[{"type": "function",'.repeat(Math.floor(MB / 22))],
  ['210K × {"a":', '{"a":'.repeat(Math.floor(MB / 5))],
  ['128K × {"a": "\\', '{"a": "\\'.repeat(Math.floor(MB / 8))],
  ['150K × [TOOL:f', '[TOOL:f'.repeat(Math.floor(MB / 7))],
  ['75K × [TOOL:f|a=1][TOOL:f', '[TOOL:f|a=1][TOOL:f'.repeat(Math.floor(MB / 19))],
  ['1 MB of a huge number', `{"tool": "f", "arguments": {"a": ${'1'.repeat(MB - 40)}`],
  ['1 MB of backslashes in a string', `{"tool": "f", "arguments": {"a": "${'\\'.repeat(MB - 40)}`],
  ['32K × (<tool_call>{"name": "f", "arguments": { + [TOOL_CALLS][{"name": "f", )', '<tool_call>{"name": "f", "arguments": {[TOOL_CALLS][{"name": "f", '.repeat(Math.floor(MB / 68))],
  ['87K × [TOOL_CALLS]', '[TOOL_CALLS]'.repeat(Math.floor(MB / 12))],
  ['70K × <function_call>', '<function_call>'.repeat(Math.floor(MB / 15))],
  ['61K × <seed:tool_call>f', '<seed:tool_call>f'.repeat(Math.floor(MB / 17))],
  ['150K × f(a=1, ', 'f(a=1, '.repeat(Math.floor(MB / 7))],
  ['33K calls {"tool": "f", …}', '{"tool": "f", "arguments": {}} '.repeat(Math.floor(MB / 31))],
  // The worst of the generated families (prefixes of typical outputs, runs of brackets and
  // quotes, nesting to the depth limit, tag soup, unclosed fences).
  ['512K × {}', '{}'.repeat(MB / 2)],
  ['350K × ][\'', "]['".repeat(Math.floor(MB / 3))],
  ['350K × :[(', ':[('.repeat(Math.floor(MB / 3))],
  ['37K × [TOOL: get_weather] [ARGS: {', '[TOOL: get_weather] [ARGS: {'.repeat(Math.floor(MB / 28))],
  ['34K × [TOOL_CALLS]get_weather[ARGS]{', '[TOOL_CALLS]get_weather[ARGS]{'.repeat(Math.floor(MB / 30))],
  ['58K × [get_weather(city=', '[get_weather(city='.repeat(Math.floor(MB / 18))],
  ['116K × f(a=1, f>', 'f(a=1, f>'.repeat(Math.floor(MB / 9))],
  ['47K × <|tool_call|>[{"name":', '<|tool_call|>[{"name":'.repeat(Math.floor(MB / 22))],
  ['2K × (<tool_call> + [ × 511)', ('<tool_call>' + '['.repeat(511)).repeat(Math.floor(MB / 522))],
  ['100K × ```json\\n{', '```json\n{'.repeat(Math.floor(MB / 9))],
  // Many small values that are not calls, and failed calls past the listed errors (issue 11 item 9).
  ['350K × [1]', '[1]'.repeat(Math.floor(MB / 3))],
  ['150K × {"a":1}', '{"a":1}'.repeat(Math.floor(MB / 7))],
  ['262K × [{}]', '[{}]'.repeat(MB / 4)],
  ['175K × [f(a=1', '[f(a=1'.repeat(Math.floor(MB / 6))],
  ['87K × [f(a=1, f(a=', '[f(a=1, f(a='.repeat(Math.floor(MB / 12))],
  ['47K × [TOOL: f] [ARGS: {f(a=', '[TOOL: f] [ARGS: {f(a='.repeat(Math.floor(MB / 22))],
  ['43K × f(a=[TOOL_CALLS]f[ARGS]{', 'f(a=[TOOL_CALLS]f[ARGS]{'.repeat(Math.floor(MB / 24))],
  ['175K × ["a"]', '["a"]'.repeat(Math.floor(MB / 5))],
  ['512K × [-', '[-'.repeat(MB / 2)],
  ['350K × [1e', '[1e'.repeat(Math.floor(MB / 3))],
]
/** The worst of the stream search, streamed by every protocol (1 MB each). */
const STREAM_WORST: ReadonlyArray<readonly [label: string, raw: string]> = [
  ['1 MB of <', '<'.repeat(MB)],
  ['1 MB of {', '{'.repeat(MB)],
  ['1 MB of [', '['.repeat(MB)],
  ['512K × [{', '[{'.repeat(MB / 2)],
  ['46K × [TOOL: f] [ARGS: {f(a=', '[TOOL: f] [ARGS: {f(a='.repeat(Math.floor(MB / 22))],
  ['150K × f(a=1, ', 'f(a=1, '.repeat(Math.floor(MB / 7))],
  ['87K × [f(a=1, f(a=', '[f(a=1, f(a='.repeat(Math.floor(MB / 12))],
  ['150K × [TOOL:f', '[TOOL:f'.repeat(Math.floor(MB / 7))],
  ['36K × <|START_ACTION|>{"name": "f"', '<|START_ACTION|>{"name": "f"'.repeat(Math.floor(MB / 28))],
  ['37K × functools[{"name": "f"', 'functools[{"name": "f"'.repeat(Math.floor(MB / 22))],
  ['1 MB of " + \\', `{"tool": "f", "arguments": {"a": "${'\\'.repeat(MB - 40)}`],
  ['175K × [f(a=1', '[f(a=1'.repeat(Math.floor(MB / 6))],
  ['47K × [TOOL: f] [ARGS: {f(a=', '[TOOL: f] [ARGS: {f(a='.repeat(Math.floor(MB / 22))],
  ['512K × {}', '{}'.repeat(MB / 2)],
  ['350K × [1]', '[1]'.repeat(Math.floor(MB / 3))],
  ['262K × [{}]', '[{}]'.repeat(MB / 4)],
  ['512K × [-', '[-'.repeat(MB / 2)],
  ['150K × </think', '</think'.repeat(Math.floor(MB / 7))],
  ['95K × <seed:think', '<seed:think'.repeat(Math.floor(MB / 11))],
]
const worstRows: string[][] = []
let worstSeconds = 0
let worstRatio = 0
let worstWhere = ''
const typicalCall = generateCalls(MB, 1, 0x3c_0001)[0]
const bestMs = (run: () => void, runs = 3): number => {
  let best = Number.POSITIVE_INFINITY
  for (let index = 0; index < runs; index++) {
    const started = now()
    run()
    best = Math.min(best, now() - started)
  }
  return best
}
console.log('\nworst cases (1 MB inputs, one-shot parse)')
if (typicalCall) {
  for (const protocol of protocols) {
    const typical = protocol.render({ text: 'Sure.', calls: [{ name: typicalCall.name, arguments: typicalCall.arguments }] })
    const typicalMsPerMb = (bestMs(() => protocol.parse(typical)) / typical.length) * MB
    for (const [label, raw] of WORST) {
      const msPerMb = (bestMs(() => protocol.parse(raw), 2) / raw.length) * MB
      const relative = msPerMb / typicalMsPerMb
      if (msPerMb / 1000 > worstSeconds) worstSeconds = msPerMb / 1000
      if (relative > worstRatio) {
        worstRatio = relative
        worstWhere = `${protocol.id}, ${label}`
      }
      worstRows.push([protocol.id, label, fixed(msPerMb / 1000), fixed(msPerMb), fixed(typicalMsPerMb), `${fixed(relative)}×`])
    }
    process.stdout.write('.')
  }
  console.log('')
  checks.push({ target: 'worst case ≤ 0.3 s per MB, any protocol', figure: `${fixed(worstSeconds)} s/MB`, met: worstSeconds <= 0.3 })
  // Streamed in 16-char chunks (about four tokens a push): the worst of the stream search
  // (`npx tsx scripts/worst-case.ts --modes stream --chunks 16`) against the typical output read the same way.
  console.log('worst cases (1 MB inputs, streamed in 16-char chunks)')
  const streamed = (id: string, raw: string): void => {
    const parser = createStreamParser(id)
    for (let at = 0; at < raw.length; at += 16) parser.push(raw.slice(at, at + 16))
    parser.end()
  }
  let streamSeconds = 0
  let streamRatio = 0
  let streamWhere = ''
  for (const protocol of protocols) {
    const typical = protocol.render({ text: 'Sure.', calls: [{ name: typicalCall.name, arguments: typicalCall.arguments }] })
    const typicalMsPerMb = (bestMs(() => streamed(protocol.id, typical), 2) / typical.length) * MB
    for (const [label, raw] of STREAM_WORST) {
      const msPerMb = (bestMs(() => streamed(protocol.id, raw), 2) / raw.length) * MB
      const relative = msPerMb / typicalMsPerMb
      if (msPerMb / 1000 > streamSeconds) streamSeconds = msPerMb / 1000
      if (relative > streamRatio) {
        streamRatio = relative
        streamWhere = `${protocol.id}, ${label}`
      }
      worstRows.push([`${protocol.id} (stream/16)`, label, fixed(msPerMb / 1000), fixed(msPerMb), fixed(typicalMsPerMb), `${fixed(relative)}×`])
    }
    process.stdout.write('.')
  }
  console.log('')
  checks.push({ target: 'streamed worst case (16-char chunks) ≤ 0.3 s per MB, any protocol', figure: `${fixed(streamSeconds)} s/MB`, met: streamSeconds <= 0.3 })
  checks.push({ target: 'streamed worst case ≤ 10× the typical input streamed the same way', figure: `${fixed(streamRatio)}× (${streamWhere})`, met: streamRatio <= 10 })
  checks.push({ target: 'worst case ≤ 10× the typical input of the same size', figure: `${fixed(worstRatio)}× (${worstWhere})`, met: worstRatio <= 10 })
}
const worstText = table(['Protocol', 'Input', 's/MB', 'ms/MB', 'typical ms/MB', 'Ratio'], worstRows)

const tableText = table(
  ['Scenario', 'Size', 'Parser', 'MB/s', 'Recovered', 'Ratio'],
  rows.map((row) => [
    row.scenario,
    row.size,
    row.parser,
    row.result ? fixed(row.result.mbPerSecond) : row.estimatedMs !== undefined ? `~${fixed(row.estimatedMs / 1000)} s/input (est.)` : '—',
    row.recovered,
    row.ratio ?? '',
  ]),
)
const checksText = table(
  ['Target', 'Measured', ''],
  checks.map((check) => [check.target, check.figure, check.met ? 'met' : 'MISSED']),
)
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const startLoad = loadavgAtStart.toFixed(2)
const header = `Node ${process.version}, ${cpu} (${cpus().length} cores), load average ${startLoad} at the start, ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench parse\` (or \`npm run bench\` for every bench file). Each figure is the best of 9 interleaved rounds, timed by ${cpuClock ? 'CPU time (`--cpu`)' : 'the clock'}.`

console.log(`\n${header}\n\n${tableText}\n\n${worstText}\n\n${checksText}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync(
  'bench-results/parse.md',
  `# Parse benchmark\n\n${header}\n\nMB/s counts UTF-16 code units of raw output per second. "Recovered": inputs whose call came back exactly.\n\n${tableText}\n\n## Worst cases\n\nHostile 1 MB inputs against each format's own rendering of a typical 1 MB call.\n\n${worstText}\n\n## Targets\n\n${checksText}\n`,
)
console.log('\nwrote bench-results/parse.md')
