// The layer rules of DESIGN.md are enforced by eslint.config.js: this proves each one fires on
// a real import (and stays quiet on allowed ones), through the same config `npm run lint` uses.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Type information is not needed for import rules; skipping it keeps this test fast.
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
})

/** Lints `code` as if it were the file at `filePath` (relative to the repo root); returns the messages. */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`)
}

describe('layer rules', () => {
  it.each([
    ['src/core/loop/probe.ts', "import { App } from '../../ui/App'", 'layers: core must not import ui'],
    ['src/core/probe.ts', "import { useRunStore } from '../store/run-store'", 'layers: core must not import store'],
    ['src/core/trace/probe.ts', "import { runCode } from '../../sandbox/run-code'", 'layers: core must not import sandbox'],
    ['src/core/probe.ts', "import { tool } from 'toolstep'", 'layers: core must not import sandbox'],
    ['src/core/probe.ts', "export { main } from '../cli/main'", 'layers: core must not import cli'],
    ['src/core/json/probe.ts', "import { readFileSync } from 'node:fs'", 'layers: core must not import Node builtins'],
    ['src/core/json/probe.ts', "import { join } from 'path'", 'layers: core must not import Node builtins'],
    ['src/core/probe.ts', "import { useState } from 'react'", 'layers: core must not import DOM-only modules'],
    ['src/core/probe.ts', "import type { StoreApi } from 'zustand'", 'layers: core must not import DOM-only modules'],
    ['src/sandbox/probe.ts', "import { useRunStore } from '../store/run-store'", 'layers: sandbox must not import store'],
    ['src/sandbox/probe.ts', "import { App } from '../ui/App'", 'layers: sandbox must not import ui'],
    ['src/store/probe.ts', "import { App } from '../ui/App'", 'layers: store must not import ui'],
    ['src/core/loop/probe.ts', "import type { SettingsInput } from '../files/workspace-file'", 'layers: core/loop must not import core/files'],
    ['src/core/loop/probe.test.ts', "import { App } from '../../ui/App'", 'layers: core must not import ui'],
    ['src/ui/probe.tsx', "import { scripted } from '../test/scripted-model'", 'layers: app code must not import src/test'],
    ['src/store/probe.ts', "import { readWorkspace } from '../core/files/workspace-file'", 'layers: store must not import a file inside a core folder'],
    ['src/ui/probe.tsx', "import type { SessionEvent } from '../core/loop/events'", 'layers: ui must not import a file inside a core folder'],
  ])('%s: %s is an error naming the rule', async (file, code, rule) => {
    const messages = await lint(file, `${code}\nexport const probe = 1\n`)
    expect(messages).toEqual([expect.stringMatching(new RegExp(`no-restricted-imports: .*${rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))])
  })

  it.each([
    ['src/core/loop/probe.ts', "import { z } from 'zod'\nimport type { Message } from '../messages'"],
    ['src/core/trace/probe.test.ts', "import { readFileSync } from 'node:fs'"],
    ['src/sandbox/probe.ts', "import { parseWith } from '../core/protocols'"],
    ['src/store/probe.ts', "import { createBrowserSandbox } from '../sandbox/browser-sandbox'\nimport { readWorkspace } from '../core/files'"],
    ['src/core/protocols/probe.test.ts', "import { fixtureCases } from '../../test/fixture-cases'"],
    ['src/ui/probe.tsx', "import { useRunStore } from '../store/run-store'\nimport { parseWith } from '../core/protocols'"],
  ])('%s: allowed imports pass', async (file, code) => {
    expect(await lint(file, `${code}\nexport const probe = 1\n`)).toEqual([])
  })
})
