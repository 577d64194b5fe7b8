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
