/** The CLI's access to the outside world, injected so commands are testable without a process. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  /** Whole standard input as UTF-8 text. */
  readStdin(): Promise<string>
  /** A file's content as UTF-8 text; rejects with the usual Node error when it can't be read. */
  readFile(path: string): Promise<string>
}
