/**
 * `toolstep eval WORKSPACE.json [--json] [--junit FILE] [--shard K/N] [--concurrency N]` — runs
 * the workspace's eval cases headless, each in a fresh Node sandbox, and reports each
 * assertion's expected vs actual. Exit 0 when every case passes, 1 when any fails, 2 on usage
 * or load errors.
 */
import { evalMetrics, evalReportJson, inShard, junitXml, parseShard, runEvalCase, type CaseResult, type EvalCase, type EvalMetrics, type Shard } from '../../core/evals'
import { readWorkspace, type Workspace } from '../../core/files/workspace-file'
import { createProcessSandbox } from '../../sandbox/node-process-sandbox'
import type { CliIO } from '../io'
import { wholeNumber } from '../whole-number'

const HELP = `Usage: toolstep eval WORKSPACE.json [--json] [--junit FILE] [--shard K/N] [--concurrency N]

Runs every case in the workspace's "cases" and checks its assertions.
  --json            print {"cases","passed","failed","results":[{"id","passed","assertions":[{"type","passed","expected","actual"}]}]}
  --junit FILE      also write a JUnit XML report to FILE
  --shard K/N       run only shard K of N (1 ≤ K ≤ N): cases are split by a hash of their id,
                    so N jobs with --shard 1/N … N/N run the whole suite exactly once
  --concurrency N   run N cases at a time (default 1)

A case: {"id", "input", "outputs"?: [raw text or assistant message, …], "maxSteps"?, "approve"?: "all"|"none",
         "assertions": [ … ]}. Without "outputs" the workspace's model.ts answers.
Assertion types:
  tool-used        {"tool"}                              the tool was called
  tool-not-used    {"tool"}                              the tool was never called
  tool-sequence    {"tools": [...], "order": "ordered"|"set", "exact"?: true}
                                                         called in this order (others between unless exact), or all of them in any order
  tool-args-match  {"tool", "arguments"?: {...}, "schema"?: {JSON Schema}}
                                                         some call's arguments contain the partial object / satisfy the schema
  step-count       {"max": N} or {"equals": N}           model turns taken
  stop-reason      {"reason": "final_answer"|"max_steps"|"repeated_call"|"aborted"|"error"}
  final-answer     {"contains"?: "...", "regex"?: "...", "flags"?: "i"}
  no-anomaly       {}                                    no event carried an anomaly or warning
Metrics: tool-selection accuracy (tool-used, tool-not-used, tool-sequence), argument accuracy
(tool-args-match), end-to-end success (cases passed).
Exit status: 0 when every case passes, 1 when any fails, 2 on usage or load errors.
`

export async function evalCommand(argv: string[], io: CliIO): Promise<number> {
  let file: string | undefined
  let json = false
  let junit: string | undefined
  let shard: Shard | undefined
  let concurrency = 1
  const usage = (message: string) => {
    io.stderr(`toolstep eval: ${message}\n`)
    return 2
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    if (flag === '--help' || flag === '-h') {
      io.stdout(HELP)
      return 0
    } else if (flag === '--json') json = true
    else if (flag === '--junit') {
      junit = value()
      if (!junit) return usage('--junit takes a file name.')
    } else if (flag === '--shard') {
      const parsed = parseShard(value() ?? '')
      if (!parsed.ok) return usage(parsed.error)
      shard = parsed.shard
    } else if (flag === '--concurrency') {
      const n = wholeNumber(value(), 1, 64)
      if (n === undefined) return usage('--concurrency takes a whole number from 1 to 64.')
      concurrency = n
    } else if (flag.startsWith('-')) {
      io.stderr(`toolstep eval: unknown option "${arg}".\n\n${HELP}`)
      return 2
    } else if (file === undefined) file = arg
    else return usage(`expected one workspace file, got also "${arg}".`)
  }
  if (!file) {
    io.stderr(`toolstep eval: missing WORKSPACE.json.\n\n${HELP}`)
    return 2
  }
  let text: string
  try {
    text = await io.readFile(file)
  } catch (error) {
    return usage(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const workspace = readWorkspace(text)
  if (!workspace.ok) return usage(`${file}: ${workspace.error}`)
  const all = workspace.value.cases ?? []
  if (all.length === 0) return usage(`${file} has no "cases" to run (see toolstep eval --help for the format).`)
  const cases = shard ? inShard(all, shard) : all

  const results: CaseResult[] = new Array<CaseResult>(cases.length)
  let loadError: string | null = null
  let next = 0
  const worker = async () => {
    while (next < cases.length && loadError === null) {
      const index = next++
      const outcome = await runOne(cases[index]!, workspace.value)
      if ('loadError' in outcome) loadError = outcome.loadError
      else {
        results[index] = outcome.result
        if (!json) io.stdout(formatCase(outcome.result))
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(cases.length, 1)) }, worker))
  if (loadError !== null) return usage(`${file}: ${loadError}`)

  if (junit) {
    try {
      await io.writeFile(junit, junitXml(suiteName(file, shard), results))
    } catch (error) {
      return usage(`cannot write ${junit}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const report = evalReportJson(results)
  if (json) io.stdout(`${JSON.stringify(report, null, 2)}\n`)
  else io.stdout(formatSummary(report.passed, report.failed, evalMetrics(results), shard, all.length))
  return report.failed === 0 ? 0 : 1
}

async function runOne(evalCase: EvalCase, workspace: Workspace): Promise<{ result: CaseResult } | { loadError: string }> {
  // A fresh sandbox per case (a child process under Node's permission model, as for toolstep run): module state in tools.ts or model.ts never leaks between cases.
  const sandbox = createProcessSandbox()
  try {
    const loaded = await sandbox.load({ tools: workspace.tools, model: workspace.model })
    if (!loaded.ok) {
      // A message that already names the file ("tools.ts ran out of memory …") is not prefixed again.
      return { loadError: loaded.errors.map((e) => (!e.line && e.message.startsWith(`${e.file} `) ? e.message : `${e.line ? `${e.file}:${e.line}${e.column ? `:${e.column}` : ''}` : e.file}: ${e.message}`)).join('; ') }
    }
    const { result } = await runEvalCase(evalCase, {
      settings: workspace.settings,
      tools: loaded.tools,
      model: sandbox,
      executor: sandbox,
      router: sandbox,
      summarizer: sandbox,
      codeRunner: sandbox,
    })
    return { result }
  } finally {
    sandbox.dispose()
  }
}

function suiteName(file: string, shard: Shard | undefined): string {
  const base = file.split(/[\\/]/).pop() ?? file
  return shard ? `${base} (shard ${shard.index}/${shard.count})` : base
}

function formatCase(result: CaseResult): string {
  const lines = [`${result.passed ? '✓' : '✗'} ${result.id}${result.stopReason ? `  (${result.stopReason})` : ''}\n`]
  for (const a of result.assertions) {
    if (!a.passed) lines.push(`    ${a.type}: expected ${JSON.stringify(a.expected)}, actual ${JSON.stringify(a.actual)}\n`)
  }
  return lines.join('')
}

function formatSummary(passed: number, failed: number, metrics: EvalMetrics, shard: Shard | undefined, total: number): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`)
  const scope = shard ? `Shard ${shard.index}/${shard.count}: ${passed + failed} of ${total} cases.\n` : ''
  return (
    `\n${scope}Tool-selection accuracy ${pct(metrics.toolSelectionAccuracy)}, argument accuracy ${pct(metrics.argumentAccuracy)}, end-to-end success ${pct(metrics.endToEndSuccess)}.\n` +
    `${passed} passed, ${failed} failed\n`
  )
}
