#!/usr/bin/env node
/**
 * Drafts the Traditional Chinese (Taiwan) UI strings from the Simplified ones:
 * src/ui/i18n/locales/zh-CN.json → zh-TW.json, with OpenCC's cn → twp conversion (characters and
 * Taiwan phrases), then the glossary's Taiwan terms (docs/glossary.md, column zh-TW) where OpenCC
 * keeps a mainland word. The output is committed and reviewed; `--check` exits 1 when the
 * committed file differs from what this script writes (a unit test runs the same conversion).
 *
 * Usage: node scripts/zh-tw.mjs [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toTraditional } from './zh-tw-convert.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const source = JSON.parse(readFileSync(`${root}src/ui/i18n/locales/zh-CN.json`, 'utf8'))
const glossary = readFileSync(`${root}docs/glossary.md`, 'utf8')
const text = `${JSON.stringify(toTraditional(source, glossary), null, 2)}\n`
const target = `${root}src/ui/i18n/locales/zh-TW.json`
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8')
  if (current !== text) {
    console.error('zh-TW.json is out of date: run node scripts/zh-tw.mjs')
    process.exit(1)
  }
} else {
  writeFileSync(target, text)
}
