/**
 * Long text crosses between the sandbox host and its worker in parts, both ways. A message is
 * a structured clone, made in the sender's task and read in the receiver's: the appended
 * messages of a turn of 100 000 calls (~20 MB of JSON) held the page for 40–120 ms in one
 * `postMessage`, and reading a 15 MB model output out of one message ~120 ms. The sender posts
 * the text as `text-part` messages of at most {@link TEXT_PART_CHARS} chars under a key (the
 * host one per task, {@link postInTextParts}; the worker at once, {@link postTextNow}: the page
 * reads each in a task of its own), and the message that follows names the key and the number
 * of parts (`{ textParts, count }` in place of the text). The receiver keeps the parts in a
 * {@link TextPartStore} and puts the text back before it reads the message.
 */

/** Chars (UTF-16 code units) of one part: a clone of this many takes a few ms. */
export const TEXT_PART_CHARS = 1_000_000

/** Where a request's appended text went in parts: the parts' key, and how many were posted. */
export interface TextPartsRef {
  textParts: string
  count: number
}

/**
 * The text `pieces` make when concatenated, cut into parts of `size` chars (the last may be
 * shorter), built one at a time so that each part's copying falls in the task that posts it.
 * A piece longer than `size` is sliced (a flat string's slice is not copied until posted).
 */
export function* textParts(pieces: readonly string[], size = TEXT_PART_CHARS): Generator<string, void, undefined> {
  let buffer: string[] = []
  let length = 0
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; ) {
      const take = Math.min(piece.length - at, size - length)
      buffer.push(at === 0 && take === piece.length ? piece : piece.slice(at, at + take))
      length += take
      at += take
      if (length >= size) {
        yield buffer.join('')
        buffer = []
        length = 0
      }
    }
  }
  if (length > 0) yield buffer.join('')
}

/** Chars of `pieces` together. */
export function piecesLength(pieces: readonly string[]): number {
  let length = 0
  for (const piece of pieces) length += piece.length
  return length
}

/** The worker's store of parts received and not yet claimed by a request. */
export interface TextPartStore {
  /** Keeps one part posted under `key`. */
  add(key: string, text: string): void
  /**
   * The text of `ref`'s parts joined, or an error when fewer or more than `ref.count` arrived.
   * Forgets those parts either way. (Parts of other keys stay: two tool batches may post theirs
   * at once. The host posts every part of a key before the request that claims it, in one loop.)
   */
  claim(ref: TextPartsRef): { ok: true; text: string } | { ok: false; error: string }
}

/** Creates an empty {@link TextPartStore}. */
export function createTextPartStore(): TextPartStore {
  const held = new Map<string, string[]>()
  return {
    add(key, text) {
      const parts = held.get(key)
      if (parts) parts.push(text)
      else held.set(key, [text])
    },
    claim(ref) {
      const parts = held.get(ref.textParts) ?? []
      held.delete(ref.textParts)
      if (parts.length !== ref.count) return { ok: false, error: `The request's text came in ${parts.length} of its ${ref.count} parts.` }
      return { ok: true, text: parts.join('') }
    },
  }
}

/**
 * Posts the text `pieces` make, when longer than {@link TEXT_PART_CHARS}, as `text-part`
 * messages through `post`, one per task (`pause` awaited between them), and gives the
 * reference to them to put in the request that follows; a shorter text is given as it is.
 */
export async function postInTextParts(
  pieces: readonly string[],
  post: (message: { type: 'text-part'; key: string; text: string }) => void,
  pause: () => Promise<void>,
): Promise<string | TextPartsRef> {
  if (piecesLength(pieces) <= TEXT_PART_CHARS) return pieces.length === 1 ? pieces[0]! : pieces.join('')
  const key = `t${nextKey++}`
  let count = 0
  for (const text of textParts(pieces)) {
    if (count > 0) await pause()
    post({ type: 'text-part', key, text })
    count++
  }
  return { textParts: key, count }
}
let nextKey = 1

/**
 * Posts `text` as `text-part` messages through `post` at once (a worker's side: the receiver
 * takes each message in a task of its own) and gives the reference to put in its place.
 */
export function postTextNow(text: string, post: (message: { type: 'text-part'; key: string; text: string }) => void): TextPartsRef {
  const key = `r${nextKey++}`
  let count = 0
  for (const part of textParts([text])) {
    post({ type: 'text-part', key, text: part })
    count++
  }
  return { textParts: key, count }
}

/**
 * The host's side of a sandbox's long outputs: keeps a `text-part` message (gives `undefined`),
 * puts the text back into a model result or a batch's tool results that name their parts, and
 * gives any other message as it came. Reads unchecked data; the schema checks the result
 * afterwards (a reference whose parts did not all arrive stays in place, and fails it).
 */
export function joinPostedParts(data: unknown, store: TextPartStore): unknown {
  type Shape = { type?: unknown; key?: unknown; text?: unknown; result?: { ok?: unknown; output?: { kind?: unknown; raw?: unknown } }; results?: unknown }
  if (typeof data !== 'object' || data === null) return data
  const shaped = data as Shape
  if (shaped.type === 'text-part') {
    if (typeof shaped.key === 'string' && typeof shaped.text === 'string') store.add(shaped.key, shaped.text)
    return undefined
  }
  if (shaped.type === 'tool-results' && Array.isArray(shaped.results)) {
    let results: unknown[] | undefined
    shaped.results.forEach((entry: unknown, index) => {
      const result = typeof entry === 'object' && entry !== null ? (entry as { result?: { result?: unknown } }).result : undefined
      if (typeof result !== 'object' || result === null || !isTextPartsRef(result.result)) return
      const claimed = store.claim(result.result)
      if (!claimed.ok) return
      results ??= (shaped.results as unknown[]).slice()
      results[index] = { ...(entry as object), result: { ...result, result: claimed.text } }
    })
    return results ? { ...shaped, results } : data
  }
  if (shaped.type !== 'model-result' || typeof shaped.result !== 'object' || shaped.result === null) return data
  const output = shaped.result.output
  if (typeof output !== 'object' || output === null || !isTextPartsRef(output.raw)) return data
  const claimed = store.claim(output.raw)
  if (!claimed.ok) return data
  return { ...shaped, result: { ...shaped.result, output: { ...output, raw: claimed.text } } }
}

/** True when `value` has the shape of a {@link TextPartsRef} (read from unchecked data). */
export function isTextPartsRef(value: unknown): value is TextPartsRef {
  if (typeof value !== 'object' || value === null) return false
  const { textParts, count } = value as Partial<TextPartsRef>
  return typeof textParts === 'string' && typeof count === 'number' && Number.isInteger(count) && count > 0
}
