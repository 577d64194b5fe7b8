/** The CLI's access to the outside world, injected so commands are testable without a process. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  /** Whole standard input as text: UTF-8, or UTF-16 when it starts with a BOM (see `decodeText`); no BOM. */
  readStdin(): Promise<string>
  /** A file's content as text, decoded like `readStdin`; rejects with the usual Node error when it can't be read. */
  readFile(path: string): Promise<string>
  /**
   * The names of the files in a directory (not recursive, sorted), or `null` when `path` is not
   * a directory. Optional: without it, every path is read as a file.
   */
  listDirectory?(path: string): Promise<string[] | null>
}
