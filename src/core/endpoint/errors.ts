/**
 * Failures of an endpoint call, each phrased for the person running the loop, with the
 * provider's own message where it sent one.
 */
import { errorMessage } from '../util'

/** What went wrong, for code that reacts (retry after a 429, show CORS help, …). */
export type EndpointErrorKind =
  | 'network'
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'http'
  | 'bad_response'
  | 'stream_cut'
  | 'aborted'
  | 'timeout'

/** An endpoint failure; `message` is shown on the decide phase. */
export class EndpointError extends Error {
  override readonly name = 'EndpointError'
  constructor(
    readonly kind: EndpointErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number } = {},
  ) {
    super(message)
  }
}

/** How to let a browser page call a local server (the server must answer CORS preflights). */
export const CORS_HELP =
  'If the server is running, it may not allow requests from this page (CORS): ' +
  'Ollama — start it with OLLAMA_ORIGINS set to this origin (or "*"); ' +
  'vLLM — pass --allowed-origins \'["ORIGIN"]\'; ' +
  'LM Studio — turn on "Enable CORS" in the server settings; ' +
  'llama.cpp server — allows any origin by default.'

/**
 * The provider's own message in an error body: `{"error": {"message"}}` (OpenAI, vLLM, LM
 * Studio), `{"error": "…"}` (Ollama), `{"message"}` or `{"detail"}`, else the body text itself
 * (cut at 500 chars). Pure; never throws.
 */
export function providerMessage(body: string): string {
  const text = body.trim()
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>
      const error = record['error']
      if (typeof error === 'string') return error
      if (typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>)['message'] === 'string') return (error as Record<string, string>)['message'] as string
      if (typeof record['message'] === 'string') return record['message']
      if (typeof record['detail'] === 'string') return record['detail']
    }
  } catch {
    // not JSON: the text itself is the message
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}

/**
 * `retry-after` (seconds or an HTTP date) or `retry-after-ms` as ms from `now`; undefined when
 * absent or unreadable. Pure.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, now: number): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms))
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The error for a non-2xx response. `body` is the response text. Pure. */
export function httpError(input: { status: number; statusText: string; body: string; url: string; model: string; retryAfterMs?: number }): EndpointError {
  const { status, url, model } = input
  const said = providerMessage(input.body)
  const statusLine = `${status}${input.statusText ? ` ${input.statusText}` : ''}`
  const provider = said ? `: ${said}` : ''
  if (status === 401 || status === 403)
    return new EndpointError('auth', `The endpoint refused the request (${statusLine})${provider}. Check the API key (sent as "Authorization: Bearer …").`, { status })
  if (status === 404)
    return new EndpointError('not_found', `Not found (${statusLine}) at ${url}${provider}. Check the model name "${model}" and that the base URL ends where the API starts (often …/v1).`, { status })
  if (status === 429) {
    const after = input.retryAfterMs
    const when = after !== undefined ? ` Retry after ${Math.ceil(after / 1000)} s.` : ''
    return new EndpointError('rate_limited', `Rate limited (${statusLine})${provider}.${when}`, { status, ...(after !== undefined ? { retryAfterMs: after } : {}) })
  }
  if (status >= 500) return new EndpointError('server', `The server failed (${statusLine})${provider}.`, { status })
  return new EndpointError('http', `The endpoint answered ${statusLine}${provider}.`, { status })
}

/**
 * The error for a `fetch` that rejected before any response. Node reports the cause
 * (`ECONNREFUSED`, `ENOTFOUND`, …); a browser says only "Failed to fetch", which is either a
 * server that is down or one that does not allow the page's origin, so both are named.
 */
export function networkError(error: unknown, url: string): EndpointError {
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined
  const message = errorMessage(error)
  if (code === 'ECONNREFUSED') return new EndpointError('network', `Connection refused at ${url}: is the server running on that host and port?`)
  if (typeof code === 'string') return new EndpointError('network', `Could not reach ${url} (${code}): ${message}.`)
  // Node's fetch always names a cause (e.g. "bad port"); only a browser hides it, and only there can CORS be why.
  if (cause instanceof Error) return new EndpointError('network', `Could not reach ${url} (${message}: ${cause.message}).`)
  return new EndpointError('network', `Could not reach ${url} (${message}). Is the server running? ${CORS_HELP}`)
}
