import { readTextFile } from '../core/util'

/** The CLI's access to the outside world, injected so commands are testable without a process. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  /** Whole standard input as text (see {@link textOf}); rejects when it is not text. */
  readStdin(): Promise<string>
  /** A file's content as text (see {@link textOf}); rejects with the usual Node error when it can't be read, or when it is not text. */
  readFile(path: string): Promise<string>
  /**
   * The names of the files in a directory (not recursive, sorted), or `null` when `path` is not
   * a directory. Optional: without it, every path is read as a file.
   */
  listDirectory?(path: string): Promise<string[] | null>
  /** Environment variables (the process's in Node); absent in tests that give none. */
  env?: Readonly<Record<string, string | undefined>>
  /** Write UTF-8 text to a file (replacing it); rejects with the usual Node error when it can't be written. */
  writeFile(path: string, text: string): Promise<void>
  /**
   * Calls `handler` on the first Ctrl-C (SIGINT) instead of exiting at once (a second Ctrl-C
   * exits with 130 as usual). Returns the function that removes the handler. Optional: without
   * it, Ctrl-C ends the process the default way.
   */
  onInterrupt?(handler: () => void): () => void
}

/**
 * The text of a whole input: UTF-8 (BOM optional) or UTF-16 LE/BE with a BOM, as the browser
 * reads it. Throws an `Error` saying why for binary data and other encodings, so no command
 * ever prints escaped bytes.
 */
export function textOf(bytes: Uint8Array): string {
  const decoded = readTextFile(bytes)
  if (!decoded.ok) throw new Error(decoded.error)
  return decoded.text
}

/** The largest input the CLI reads, bytes: past it a string could not hold the text anyway (V8's limit is ~512 M characters). */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024

/** How much of an input is read before it is checked to be text, bytes. */
const HEAD_BYTES = 64 * 1024

/**
 * Reads a whole input from `chunks` as {@link textOf} does, but stops early: once the first
 * {@link HEAD_BYTES} are in and they are not text (`/dev/urandom`, a binary file), and once more
 * than `maxBytes` arrived (`/dev/zero` never ends). Rejects with an `Error` saying why.
 * @param maxBytes - the cap, bytes ({@link MAX_INPUT_BYTES} by default)
 */
export async function readTextChunks(chunks: AsyncIterable<Uint8Array>, maxBytes = MAX_INPUT_BYTES): Promise<string> {
  const parts: Uint8Array[] = []
  let total = 0
  let checked = false
  for await (const chunk of chunks) {
    parts.push(chunk)
    total += chunk.length
    if (total > maxBytes) throw new Error(`it is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Toolstep reads.`)
    if (!checked && total >= HEAD_BYTES) {
      checked = true
      const notText = headError(concat(parts, total))
      if (notText) throw new Error(notText)
    }
  }
  return textOf(concat(parts, total))
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * Why the first bytes of an input are not text, or `undefined` when they may be. The head may end
 * inside a character, so it counts as text when it decodes without up to its last 3 bytes.
 */
function headError(head: Uint8Array): string | undefined {
  let first: string | undefined
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    const decoded = readTextFile(head.subarray(0, head.length - cut))
    if (decoded.ok) return undefined
    first ??= decoded.error
  }
  return first
}
