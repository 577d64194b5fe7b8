/**
 * Reading a log file's text into a `LogDocument`: one JSON value, or one per line (JSONL, or
 * the `data:` lines of a server-sent event stream). Pure; never throws; linear in the text.
 */
import type { JsonValue } from '../messages'
import type { LogDocument } from './importers/types'
import { engineJsonError } from '../util/json-engine-error'
import { jsonDepth, MAX_FILE_DEPTH } from '../util/json-walk'
import { stripBom } from '../util/text-file'
import type { PhraseParams, PhraseRef } from '../util/phrase'
import { traceEnglish, tracePhrase, traceRef, type TraceTextKey } from './trace-text'

/** A failed read: the English error and the same as a phrase of `TRACE_TEXT`. */
export interface ReadFailure {
  ok: false
  error: string
  errorPhrase: PhraseRef
}

/** The failure saying `key` of `TRACE_TEXT`. */
export function failure(key: TraceTextKey, params?: PhraseParams): ReadFailure {
  const errorPhrase = traceRef(key, params)
  return { ok: false, error: errorPhrase.english, errorPhrase }
}

/**
 * Parse a file's text. An error says what failed and where (line number for JSON lines); the
 * JSON parser's own message is kept as it is.
 */
export function parseLogDocument(text: string): { ok: true; document: LogDocument } | ReadFailure {
  // A byte order mark is common in files saved on Windows and is not JSON.
  const body = stripBom(text)
  if (body.trim() === '') return failure('importEmpty')
  let wholeError: ReadFailure
  try {
    const value = JSON.parse(body) as JsonValue
    if (jsonDepth(value, MAX_FILE_DEPTH) > MAX_FILE_DEPTH) return failure('importTooDeep', { limit: MAX_FILE_DEPTH })
    return { ok: true, document: { kind: 'json', value } }
  } catch (error) {
    wholeError = failure('importNotJson', { error: engineJsonError(error) })
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
      const value = JSON.parse(row) as JsonValue
      if (jsonDepth(value, MAX_FILE_DEPTH) > MAX_FILE_DEPTH) return failure('importLineTooDeep', { line: index + 1, limit: MAX_FILE_DEPTH })
      lines.push({ value, line: index + 1 })
    } catch (error) {
      // A first line that is not JSON means the file was meant as one JSON value: report that error.
      if (lines.length === 0) return wholeError
      return failure('importNotJsonLines', { line: index + 1, error: engineJsonError(error) })
    }
  }
  if (lines.length === 0 || (lines.length < 2 && !sse)) return wholeError
  return { ok: true, document: { kind: 'lines', lines, sse } }
}

/** The error for a file nested deeper than {@link MAX_FILE_DEPTH}. */
export function tooDeepFile(): string {
  return traceEnglish(tracePhrase('importTooDeep', { limit: MAX_FILE_DEPTH }))
}
