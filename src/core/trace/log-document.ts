/**
 * Reading a log file's text into a `LogDocument`: one JSON value, or one per line (JSONL, or
 * the `data:` lines of a server-sent event stream). Pure; never throws; linear in the text.
 */
import type { JsonValue } from '../messages'
import type { LogDocument } from './importers/types'
import { errorMessage } from '../util/error-message'
import { stripBom } from '../util/text-file'

/** Parse a file's text. An error says what failed and where (line number for JSON lines). */
export function parseLogDocument(text: string): { ok: true; document: LogDocument } | { ok: false; error: string } {
  // A byte order mark is common in files saved on Windows and is not JSON.
  const body = stripBom(text)
  if (body.trim() === '') return { ok: false, error: 'The file is empty.' }
  let wholeError: string
  try {
    return { ok: true, document: { kind: 'json', value: JSON.parse(body) as JsonValue } }
  } catch (error) {
    wholeError = `Not valid JSON: ${errorMessage(error)}.`
  }
  const lines: { value: JsonValue; line: number }[] = []
  let sse = false
  const rows = body.split('\n')
  for (let index = 0; index < rows.length; index++) {
    let row = rows[index]!.trim()
    if (row === '') continue
    if (row.startsWith('data:')) {
      sse = true
      row = row.slice(5).trim()
      if (row === '[DONE]') continue
    } else if (/^(event|id|retry):|^:/.test(row)) {
      // The other fields of a server-sent event carry no JSON.
      sse = true
      continue
    }
    try {
      lines.push({ value: JSON.parse(row) as JsonValue, line: index + 1 })
    } catch (error) {
      // A first line that is not JSON means the file was meant as one JSON value: report that error.
      if (lines.length === 0) return { ok: false, error: wholeError }
      return { ok: false, error: `Not valid JSON lines: line ${index + 1}: ${errorMessage(error)}.` }
    }
  }
  if (lines.length === 0 || (lines.length < 2 && !sse)) return { ok: false, error: wholeError }
  return { ok: true, document: { kind: 'lines', lines, sse } }
}
