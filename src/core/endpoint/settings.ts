/**
 * Settings of an OpenAI-compatible Chat Completions endpoint used as the model.
 *
 * The API key is not part of {@link EndpointConfig}, the shape that may be saved with a
 * workspace: it is passed separately at run time ({@link EndpointCredentials}) so no file,
 * export or share link can carry it.
 */
import { z } from 'zod'

/** Default time allowed for one model call (request + whole response), ms. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 60_000

/** What may be saved: everything but the key. */
export interface EndpointConfig {
  /** Base URL of the API, e.g. `http://127.0.0.1:11434/v1` (`/chat/completions` is appended). */
  baseUrl: string
  /** Model name sent as `model`. */
  model: string
  /** Sampling temperature; left out of the request when absent (the server's default). */
  temperature?: number
  /** Ask for a streamed (`text/event-stream`) response. */
  stream: boolean
  /** Time allowed for one call, ms (default {@link DEFAULT_ENDPOINT_TIMEOUT_MS}). */
  timeoutMs?: number
  /** Extra request headers (e.g. an `OpenAI-Organization` or a proxy's header). */
  headers?: Record<string, string>
}

/** Secrets used for a run, never saved. */
export interface EndpointCredentials {
  /** Sent as `Authorization: Bearer KEY` when set. */
  apiKey?: string
}

export const endpointConfigSchema = z.object({
  baseUrl: z.string().min(1),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean(),
  timeoutMs: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).optional(),
})

/**
 * The chat completions URL for a base URL: trailing slashes dropped, `/chat/completions`
 * appended unless the URL already ends with it. Pure.
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '')
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`
}

/** Query parameters whose value is a secret by custom (`?key=…` for Gemini's OpenAI API, `?api-key=…`…). */
const SECRET_QUERY = /^(?:key|api[-_]?key|access[-_]?token|token|auth|secret|sig|signature|password|code)$/i

/** A base URL split by {@link checkBaseUrl}: `http` or `https` and what follows `//`. */
const URL_SHAPE = /^(https?):\/\/(?:([^/?#]*)@)?([^/?#@]+)([^?#]*)(\?[^#]*)?(#.*)?$/i

/**
 * Checks that `baseUrl` is an absolute `http://` or `https://` URL with a host. Pure.
 *
 * @returns `null` when it is, else a sentence saying what is wrong (for a usage error).
 */
export function checkBaseUrl(baseUrl: string): string | null {
  const text = baseUrl.trim()
  if (text === '') return 'The endpoint URL is empty.'
  if (!URL_SHAPE.test(text)) return `"${text}" is not an http:// or https:// URL (e.g. http://127.0.0.1:11434/v1).`
  return null
}

/**
 * The base URL with its secrets taken out, for anything written down (a remembered setting,
 * an exported program, a generated mock model): user name and password before `@`, and the
 * values of query parameters that by custom carry a key (`key`, `api_key`, `token`…), which
 * become `REDACTED`. Pure; a URL it cannot split is returned as it is.
 *
 * @returns `url`, and `removed` naming what was taken out (empty when nothing was).
 */
export function redactBaseUrl(baseUrl: string): { url: string; removed: string[] } {
  const match = URL_SHAPE.exec(baseUrl.trim())
  if (!match) return { url: baseUrl, removed: [] }
  const [, scheme, userinfo, host, path, query, hash] = match
  const removed: string[] = []
  if (userinfo !== undefined) removed.push('the user name and password in the URL')
  let cleanQuery = query ?? ''
  if (query) {
    cleanQuery = '?' + query.slice(1).split('&').map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq < 0 ? pair : pair.slice(0, eq)
      if (eq < 0 || !SECRET_QUERY.test(decodeURIComponentSafe(name))) return pair
      removed.push(`the URL's "${name}" parameter`)
      return `${name}=REDACTED`
    }).join('&')
  }
  if (removed.length === 0) return { url: baseUrl, removed }
  return { url: `${scheme}://${host}${path}${cleanQuery}${hash ?? ''}`, removed }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
