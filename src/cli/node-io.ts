import { readFile } from 'node:fs/promises'
import { textOf, type CliIO } from './io'

/** `CliIO` backed by the real process. */
export const nodeIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return textOf(Buffer.concat(chunks))
  },
  readFile: async (path) => textOf(await readFile(path)),
}
