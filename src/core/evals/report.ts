/**
 * An eval run's results, metrics and their JSON and JUnit XML forms.
 */
import type { JsonValue } from '../messages'
import type { AssertionResult } from './assertions'

/** One case's outcome. `error` is set when the case could not run (its model failed to load…). */
export interface CaseResult {
  id: string
  passed: boolean
  assertions: AssertionResult[]
  /** Wall time of the run, ms. */
  durationMs: number
  /** Why the loop stopped. */
  stopReason: string | null
  error?: string
}

/** Metrics over a run, each a fraction from 0 to 1, or `null` when no assertion measures it. */
export interface EvalMetrics {
  /** Passed `tool-used` / `tool-not-used` / `tool-sequence` assertions over all of them. */
  toolSelectionAccuracy: number | null
  /** Passed `tool-args-match` assertions over all of them. */
  argumentAccuracy: number | null
  /** Cases whose every assertion passed, over all cases. */
  endToEndSuccess: number | null
}

const SELECTION = new Set(['tool-used', 'tool-not-used', 'tool-sequence'])

/** Compute the metrics of a list of case results. Pure. */
export function evalMetrics(results: readonly CaseResult[]): EvalMetrics {
  const ratio = (list: readonly { passed: boolean }[]) => (list.length === 0 ? null : list.filter((x) => x.passed).length / list.length)
  const assertions = results.flatMap((r) => r.assertions)
  return {
    toolSelectionAccuracy: ratio(assertions.filter((a) => SELECTION.has(a.type))),
    argumentAccuracy: ratio(assertions.filter((a) => a.type === 'tool-args-match')),
    endToEndSuccess: ratio(results),
  }
}

/** The `--json` report: `{"cases","passed","failed","results":[{"id","passed","assertions":[{"type","passed","expected","actual"}]}]}`. */
export function evalReportJson(results: readonly CaseResult[]): { cases: number; passed: number; failed: number; results: { id: string; passed: boolean; assertions: { type: string; passed: boolean; expected: JsonValue; actual: JsonValue }[] }[] } {
  const passed = results.filter((r) => r.passed).length
  return {
    cases: results.length,
    passed,
    failed: results.length - passed,
    results: results.map((r) => ({
      id: r.id,
      passed: r.passed,
      assertions: r.error !== undefined ? [{ type: 'run', passed: false, expected: 'the case runs', actual: r.error }] : r.assertions.map((a) => ({ type: a.type, passed: a.passed, expected: a.expected, actual: a.actual })),
    })),
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Escape text for an XML attribute or element, dropping characters XML 1.0 cannot hold. */
function xml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
}

/**
 * JUnit XML (the schema CI systems read: `testsuites > testsuite > testcase > failure`, as
 * written by Ant's JUnit task and read by GitHub, GitLab and Jenkins). One testcase per case;
 * a failed case has one `<failure>` listing each failed assertion's expected and actual values;
 * the metrics are `<property>`s of the suite. `time` is in seconds.
 */
export function junitXml(suite: string, results: readonly CaseResult[]): string {
  const failures = results.filter((r) => !r.passed).length
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const total = results.reduce((sum, r) => sum + r.durationMs, 0)
  const metrics = evalMetrics(results)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="toolstep eval" tests="${results.length}" failures="${failures}" errors="0" time="${seconds(total)}">`,
    `  <testsuite name="${xml(suite)}" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(total)}">`,
    '    <properties>',
    ...Object.entries(metrics).map(([name, value]) => `      <property name="${name}" value="${value === null ? '' : value.toFixed(4)}"/>`),
    '    </properties>',
  ]
  for (const r of results) {
    const open = `    <testcase classname="${xml(suite)}" name="${xml(r.id)}" time="${seconds(r.durationMs)}"`
    if (r.passed) {
      lines.push(`${open}/>`)
      continue
    }
    const failed = r.error !== undefined ? [`run: ${r.error}`] : r.assertions.filter((a) => !a.passed).map((a) => `${a.type}: expected ${JSON.stringify(a.expected)}, actual ${JSON.stringify(a.actual)}`)
    lines.push(`${open}>`, `      <failure message="${xml(failed[0] ?? 'failed')}" type="assertion">${xml(failed.join('\n'))}</failure>`, '    </testcase>')
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}
