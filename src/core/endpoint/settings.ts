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
