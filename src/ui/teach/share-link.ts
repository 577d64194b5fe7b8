/**
 * Share links: a workspace (code, input, settings) and the chosen lesson, compressed into the URL
 * fragment as `#share=<base64url of deflate-raw of JSON>`. The fragment never reaches a server.
 * Compression is the platform's CompressionStream('deflate-raw') (RFC 1951); base64url is RFC 4648 §5
 * without padding. Links never carry secrets (see {@link withoutSecrets}); the rest of the workspace
 * round-trips exactly.
 */
import { readWorkspace, type Workspace } from '../../core/files'
import { redactBaseUrl } from '../../core/endpoint'
import { corePhrase, type Phrase } from '../i18n/text'

/** What a link carries. */
export interface SharePayload {
  workspace: Workspace
  lessonId?: string
}

/** The fragment prefix. */
export const SHARE_PREFIX = '#share='
/** Longest link offered, chars: beyond it chat tools and some browsers cut URLs. */
export const MAX_LINK_CHARS = 32_000
/** Largest decompressed payload accepted, bytes: a link cannot make the page inflate gigabytes. */
export const MAX_PAYLOAD_BYTES = 4_000_000

/**
 * Setting keys that hold a secret, by their whole name: an endpoint key, its headers (they carry
 * `Authorization` and vendor keys), a token, a password. Whole names, so `maxTokens` stays.
 */
const SECRET_SETTING = /^(?:api[-_]?key|headers|authorization|bearer|password|passwd|(?:client[-_]?)?secret|(?:access[-_]?|auth[-_]?|bearer[-_]?|refresh[-_]?)?token|credentials?)$/i

/** `value` (part of the settings) without its secret keys, and with credentials taken out of URLs. */
function settingsWithoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(settingsWithoutSecrets)
  if (typeof value === 'string') return /^https?:\/\//i.test(value.trim()) ? redactBaseUrl(value).url : value
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET_SETTING.test(key)).map(([key, v]) => [key, settingsWithoutSecrets(v)]))
  }
  return value
}

/**
 * `workspace` without its secrets: in its settings, keys that hold one (the endpoint key, headers,
 * tokens, passwords, at any depth) and the credentials of URLs (user and password, `?key=`…).
 * Code, input and eval cases are carried exactly as they are, whatever they mention.
 */
export function withoutSecrets(workspace: Workspace): Workspace {
  return { ...workspace, settings: settingsWithoutSecrets(workspace.settings) as Workspace['settings'] }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError('the link holds characters that are not base64url', { key: 'share.notBase64' })
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4)
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel()
      throw new LinkError(`the link's content is larger than ${limit} bytes`, { key: 'share.tooLarge', params: { limit } })
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/** The fragment (`#share=…`) for `payload`, secrets removed. */
export async function encodeShare(payload: SharePayload): Promise<string> {
  const clean: SharePayload = { workspace: withoutSecrets(payload.workspace), ...(payload.lessonId ? { lessonId: payload.lessonId } : {}) }
  const bytes = new TextEncoder().encode(JSON.stringify(clean))
  return SHARE_PREFIX + toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw'), Number.POSITIVE_INFINITY))
}

/**
 * The JSON a `#share=` fragment holds, exactly as carried (before validation). Throws on bad
 * base64url, a damaged stream, more than {@link MAX_PAYLOAD_BYTES} bytes, or invalid UTF-8 / JSON.
 */
export async function readFragment(fragment: string): Promise<unknown> {
  const bytes = await pipe(fromBase64Url(fragment.slice(SHARE_PREFIX.length)), new DecompressionStream('deflate-raw'), MAX_PAYLOAD_BYTES)
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
}

/** The result of reading a fragment. */
export type DecodeResult = { ok: true; payload: SharePayload } | { ok: false; error: string; phrase?: Phrase }

/** What is wrong with a link, in English and as a phrase of the UI's resources. */
class LinkError extends Error {
  constructor(
    message: string,
    readonly phrase: Phrase,
  ) {
    super(message)
  }
}

/**
 * Reads a fragment made by {@link encodeShare}. Never throws: a damaged, oversized or invalid link
 * gives `{ok: false, error}` naming what is wrong (the workspace is validated like a workspace file).
 */
export async function decodeShare(fragment: string): Promise<DecodeResult> {
  if (!fragment.startsWith(SHARE_PREFIX)) return { ok: false, error: 'not a share link', phrase: { key: 'share.notLink' } }
  try {
    const value = await readFragment(fragment)
    if (typeof value !== 'object' || value === null || !('workspace' in value)) return { ok: false, error: 'the link holds no workspace', phrase: { key: 'share.noWorkspace' } }
    const read = readWorkspace(JSON.stringify(value.workspace))
    if (!read.ok) return { ok: false, error: read.error, ...(read.phrase ? { phrase: corePhrase('file', read.phrase) } : {}) }
    const lessonId = 'lessonId' in value && typeof value.lessonId === 'string' ? value.lessonId : undefined
    return { ok: true, payload: { workspace: withoutSecrets(read.value), ...(lessonId ? { lessonId } : {}) } }
  } catch (error) {
    // The browser's own decompression and decoding errors stay as it said them.
    if (error instanceof LinkError) return { ok: false, error: error.message, phrase: error.phrase }
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/** The full link for `fragment` on the page at `location` (query and old fragment dropped). */
export function shareUrl(location: { origin: string; pathname: string }, fragment: string): string {
  return `${location.origin}${location.pathname}${fragment}`
}
