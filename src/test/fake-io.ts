/** A `CliIO` for tests: files from memory (text or bytes; absolute paths fall back to disk), output recorded. */
import { readFileSync } from 'node:fs'
import { textOf, type CliIO } from '../cli/io'

export function fakeIO(files: Record<string, string | Uint8Array> = {}, stdin: string | Uint8Array = '') {
  const out: string[] = []
  const err: string[] = []
  const asText = (content: string | Uint8Array) => (typeof content === 'string' ? content : textOf(content))
  const io: CliIO = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    readStdin: async () => asText(stdin),
    readFile: async (path) => {
      if (Object.hasOwn(files, path)) return asText(files[path]!)
      if (path.startsWith('/')) return textOf(readFileSync(path))
      throw new Error(`ENOENT: no such file or directory, open '${path}'`)
    },
  }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}
