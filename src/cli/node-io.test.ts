import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeIO } from './node-io'

const dir = mkdtempSync(join(tmpdir(), 'toolstep-io-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('nodeIO.readFile', () => {
  const text = '{"messages": [{"role": "user", "content": "Zürich?"}]}'

  it('reads UTF-8 with and without a BOM, and UTF-16 files that start with a BOM', async () => {
    const files = {
      'plain.json': Buffer.from(text, 'utf8'),
      'bom.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
      'le.json': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      'be.json': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
    }
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes)
    for (const name of Object.keys(files)) expect(await nodeIO.readFile(join(dir, name))).toBe(text)
  })
})
