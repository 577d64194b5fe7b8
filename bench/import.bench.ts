/**
 * Import benchmark (issue 5): a ~50 MB log of 20 000 conversations, generated in memory as an
 * OpenAI conversation list (`[{id, messages}]`) and as gateway JSONL (one request + response per
 * line). For each: import time as a ratio to plain `JSON.parse` of the same text (per line for
 * JSONL), with and without the anomaly checks the import worker runs to build its index, and
 * peak heap growth during the import as a ratio to the file size. Writes bench-results/import.md.
 *
 * Peak memory is sampled at every progress report of `importLogChunked` (the parsed document
 * and the conversations built so far are all alive then) and once more after the index is built,
 * with the result still referenced. The text itself is allocated before the baseline.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { importLog, importLogChunked } from '../src/core/trace/index'
import { summarizeAll } from '../src/sandbox/log-import-runtime'
import { fixed, table } from './measure'

const CONVERSATIONS = 20_000
const ROUNDS = 3
const TOOLS = ['lookup_order', 'search_flights', 'book_flight', 'refund_payment', 'get_weather', 'send_email', 'update_address']

/** `gc()` without needing `node --expose-gc`: the flag can be set at run time and read from a fresh context. */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc
  if (existing) return existing
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}
const gc = collector()

/** Conversation `i`: two tool turns and an answer; every 17th reuses a tool_call_id, every 29th has an orphan result. */
function conversation(i: number, pad: number, note: number): Record<string, unknown>[] {
  const first = TOOLS[i % TOOLS.length]!
  const second = TOOLS[(i * 3 + 1) % TOOLS.length]!
  const secondId = i % 17 === 0 ? `call_${i}_a` : `call_${i}_b`
  return [
    { role: 'system', content: 'You are a travel support agent. Use the tools to look up orders and bookings, then answer briefly.' },
    { role: 'user', content: `Customer ${i}: my booking ${10_000 + i} was changed without notice. ${'Please check the itinerary and the refund. '.repeat(pad)}` },
    { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}_a`, type: 'function', function: { name: first, arguments: JSON.stringify({ order_id: 10_000 + i, include: ['items', 'history'] }) } }] },
    { role: 'tool', tool_call_id: `call_${i}_a`, content: JSON.stringify({ status: 'changed', legs: [{ from: 'CDG', to: 'NRT', date: '2025-03-0' + ((i % 9) + 1) }], notes: 'x'.repeat(note) }) },
    { role: 'assistant', content: null, tool_calls: [{ id: secondId, type: 'function', function: { name: second, arguments: JSON.stringify({ order_id: 10_000 + i, reason: 'schedule change' }) } }] },
    { role: 'tool', tool_call_id: secondId, content: JSON.stringify({ ok: true, reference: `R-${i}` }) },
    ...(i % 29 === 0 ? [{ role: 'tool', tool_call_id: 'call_stray', content: 'stray' }] : []),
    { role: 'assistant', content: `Your booking ${10_000 + i} is restored and the refund is on its way.` },
  ]
}

/** A JSON list of conversation records. */
function conversationList(count: number, pad: number, note: number): string {
  const records: string[] = []
  for (let i = 0; i < count; i++) records.push(JSON.stringify({ id: `conv-${i}`, task_id: i, reward: i % 3 === 0 ? 0 : 1, messages: conversation(i, pad, note) }))
  return `[${records.join(',\n')}]`
}

/** Gateway JSONL: per conversation, one line per model call (request history + response), conversations interleaved. */
function gatewayJsonl(count: number, pad: number, note: number): string {
  const lines: string[] = []
  const all = Array.from({ length: count }, (_, i) => conversation(i, pad, note))
  for (const turn of [2, 4, 7]) {
    all.forEach((messages, i) => {
      const at = Math.min(turn, messages.length - 1)
      lines.push(
        JSON.stringify({
          request: { model: 'gpt-4o-mini', messages: messages.slice(0, at) },
          response: { id: `chatcmpl-${i}-${turn}`, choices: [{ index: 0, message: messages[at], finish_reason: turn === 7 ? 'stop' : 'tool_calls' }] },
        }),
      )
    })
  }
  return lines.join('\n')
}

/** Best wall time of `ROUNDS` runs, ms. */
function best(run: () => void): number {
  let fastest = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    gc()
    const started = performance.now()
    run()
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest
}

/** Peak heap growth over the baseline while importing and indexing `text`, bytes. */
async function peakHeap(text: string): Promise<number> {
  gc()
  gc()
  const base = process.memoryUsage().heapUsed
  let peak = 0
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed - base)
  }
  const result = await importLogChunked(text, { onProgress: sample, batchSize: 100 })
  sample()
  if (!result.ok) throw new Error(result.error)
  const index = summarizeAll(result.conversations, null, sample)
  sample()
  if (index.length !== CONVERSATIONS) throw new Error(`indexed ${index.length} conversations`)
  return peak
}

interface Row {
  log: string
  megabytes: number
  parseMs: number
  importMs: number
  indexedMs: number
  peakBytes: number
  bytes: number
}

const rows: Row[] = []
for (const [log, make, parse] of [
  ['conversation list (JSON)', () => conversationList(CONVERSATIONS, 30, 300), (text: string) => JSON.parse(text) as unknown],
  ['gateway JSONL', () => gatewayJsonl(CONVERSATIONS, 0, 20), (text: string) => text.split('\n').map((line) => JSON.parse(line) as unknown)],
] as const) {
  const text = make()
  const bytes = Buffer.byteLength(text)
  const check = importLog(text)
  if (!check.ok || check.conversations.length !== CONVERSATIONS) throw new Error(`${log}: ${check.ok ? `${check.conversations.length} conversations` : check.error}`)
  const parseMs = best(() => parse(text))
  const importMs = best(() => importLog(text))
  const indexedMs = best(() => {
    const result = importLog(text)
    if (result.ok) summarizeAll(result.conversations, null)
  })
  const peakBytes = await peakHeap(text)
  rows.push({ log, megabytes: bytes / 1e6, parseMs, importMs, indexedMs, peakBytes, bytes })
  console.log(`${log}: ${(bytes / 1e6).toFixed(1)} MB done`)
}

const tableText = table(
  ['Log', 'Size', 'JSON.parse', 'importLog', '× JSON.parse', 'import + index', '× JSON.parse', 'Peak heap', '× file size'],
  rows.map((row) => [
    `${row.log}, ${CONVERSATIONS.toLocaleString('en')} conversations`,
    `${fixed(row.megabytes)} MB`,
    `${fixed(row.parseMs)} ms`,
    `${fixed(row.importMs)} ms`,
    `${fixed(row.importMs / row.parseMs)}×`,
    `${fixed(row.indexedMs)} ms`,
    `${fixed(row.indexedMs / row.parseMs)}×`,
    `${fixed(row.peakBytes / 1e6)} MB`,
    `${fixed(row.peakBytes / row.bytes)}×`,
  ]),
)
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const header = `Node ${process.version}, ${cpu} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench import\`.`
const notes = [
  'Times are the best of 3 runs after a garbage collection. "JSON.parse" is plain `JSON.parse` of the same text (of each line, for JSONL).',
  '"import + index" adds what the import worker does before the page sees a list: the anomaly checks and the compact index of every conversation.',
  'Peak heap is the growth of `heapUsed` over a baseline taken after the text was built, sampled at every progress report of `importLogChunked` and after indexing, with everything still referenced; "× file size" divides it by the UTF-8 size of the file.',
].join('\n')

console.log(`\n${header}\n\n${tableText}\n\n${notes}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/import.md', `# Import benchmark\n\n${header}\n\n${tableText}\n\n${notes}\n`)
console.log('\nwrote bench-results/import.md')
