/**
 * *Export → TypeScript loop* and *Export → Vitest test* for the playground: the workspace (and,
 * for the test, the open live run) written as one runnable `.ts` file by core/export. Toolstep's
 * bundled code is loaded on first use only (a few hundred kB), so it stays out of the first paint.
 * The endpoint's URL, model name and options go into the program; its API key never does.
 */
import { ExportError, writeLoopProgram, writeLoopTest, type ExportBundle } from '../core/export'
import type { EndpointConfig } from '../core/endpoint'
import type { Workspace } from '../core/files'
import type { SessionEvent } from '../core/loop'
import { errorMessage, type Phrase, type PhraseParams } from '../core/util'
import { storeMessage, storePhrase, type StoreTextKey } from './messages'
import type { ExportFile } from './export-controller'

/** Toolstep's code for exports (see scripts/export-kit.ts), loaded once. */
let bundle: Promise<ExportBundle> | undefined
function exportBundle(): Promise<ExportBundle> {
  bundle ??= import('virtual:toolstep-export-kit').then((module) => module.default)
  return bundle
}

/** The outcome of an export: the file, or why there is none (nothing changed). */
export type CodeExportResult = { ok: true; file: ExportFile } | { ok: false; error: string; phrase: Phrase }

async function attempt(write: (bundle: ExportBundle) => ExportFile): Promise<CodeExportResult> {
  try {
    return { ok: true, file: write(await exportBundle()) }
  } catch (error) {
    // Why the workspace cannot be exported, in the export catalogue's words (`export.` names it, as
    // the UI reads nested keys); anything else is the exporter's own error, as it said it.
    if (error instanceof ExportError && error.phrase) return { ok: false, error: error.message, phrase: { ...error.phrase, key: `export.${error.phrase.key}` } }
    return refusal('exportError', { error: errorMessage(error) })
  }
}

/** The TypeScript loop program of `workspace`, asking `endpoint` by default. */
export function exportLoopProgram(workspace: Workspace, endpoint: EndpointConfig): Promise<CodeExportResult> {
  return attempt((kit) => ({ fileName: 'toolstep-loop.ts', text: writeLoopProgram({ workspace, endpoint, bundle: kit }) }))
}

/** The Vitest test replaying `events` (a live run of `workspace`). */
export function exportLoopTest(workspace: Workspace, run: { events: readonly SessionEvent[]; mode: string }): Promise<CodeExportResult> {
  if (run.mode !== 'live' || !run.events.some((e) => e.type === 'model.responded')) {
    return Promise.resolve(refusal('exportNoRun'))
  }
  return attempt((kit) => ({ fileName: 'toolstep-loop.test.ts', text: writeLoopTest({ workspace, events: run.events, bundle: kit }) }))
}

/** An export that did not happen, worded by STORE_TEXT's `key`. */
function refusal(key: StoreTextKey, params?: PhraseParams): CodeExportResult {
  const phrase = storePhrase(key, params)
  return { ok: false, error: storeMessage([phrase]), phrase }
}
