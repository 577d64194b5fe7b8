/**
 * The workspace file: everything a user authored, enough to re-run it anywhere
 * (`{ "format": "toolstep.workspace", "version": 1, tools, model, settings, input }`).
 */
import { z } from 'zod'
import { DEFAULT_LOOP_SETTINGS, settingsSchema, type Settings, type SettingsInput } from '../loop/settings'
import { evalCasesSchema } from '../evals/case-schema'
import { zodErrorPhrase } from './zod-error'
import { fileMessage, filePhrase } from './file-text'
import type { Phrase } from '../util/phrase'
import { parseJsonText } from '../util/text-file'

export { settingsSchema, type Settings, type SettingsInput }

/** The format version workspace and session files are written in, and the only one read. */
export const FORMAT_VERSION = 1

export const workspaceSchema = z.object({
  format: z.literal('toolstep.workspace'),
  version: z.literal(1),
  /** Source of tools.ts. */
  tools: z.string(),
  /** Source of model.ts. */
  model: z.string(),
  settings: settingsSchema,
  /** The user message that starts the run. */
  input: z.string(),
  /** Eval cases run by the Evals tab and `toolstep eval`; absent in files written before evals existed. */
  cases: evalCasesSchema.optional(),
})
export type Workspace = z.infer<typeof workspaceSchema>

/**
 * Result of reading a file: the value, or an error naming the path of the bad field (English),
 * with that error as a phrase of `FILE_TEXT` when the file was refused by its schema.
 */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: string; phrase?: Phrase }

/**
 * The `version` of a file of `format` when it is a number other than {@link FORMAT_VERSION}
 * (a file from a newer Toolstep); `undefined` otherwise, when the schema says what is wrong.
 */
export function otherVersion(data: unknown, format: string): number | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined
  const file = data as { format?: unknown; version?: unknown }
  return file.format === format && typeof file.version === 'number' && file.version !== FORMAT_VERSION ? file.version : undefined
}

/** Parses and validates workspace JSON text, with or without a BOM. Never throws. */
export function readWorkspace(text: string): ReadResult<Workspace> {
  const json = parseJsonText(text)
  if (!json.ok) return json
  // reportInput: zod's locales name the type received (only its type is kept, see zodIssueJson).
  const version = otherVersion(json.value, 'toolstep.workspace')
  if (version !== undefined) {
    const phrase = filePhrase('workspaceVersion', { version, supported: FORMAT_VERSION })
    return { ok: false, error: fileMessage(phrase), phrase }
  }
  const parsed = workspaceSchema.safeParse(json.value, { reportInput: true })
  if (parsed.success) return { ok: true, value: parsed.data }
  const phrase = filePhrase('notWorkspace', { problems: zodErrorPhrase(parsed.error) })
  return { ok: false, error: fileMessage(phrase), phrase }
}

/** Serialises a workspace with stable key order (2-space JSON, trailing newline). */
export function writeWorkspace(workspace: Omit<Workspace, 'format' | 'version' | 'settings'> & { settings: SettingsInput }): string {
  const settings: Settings = { ...workspace.settings, loop: workspace.settings.loop ?? DEFAULT_LOOP_SETTINGS }
  const file: Workspace = {
    format: 'toolstep.workspace',
    version: 1,
    tools: workspace.tools,
    model: workspace.model,
    settings,
    input: workspace.input,
    ...(workspace.cases && workspace.cases.length > 0 ? { cases: workspace.cases } : {}),
  }
  return `${JSON.stringify(file, null, 2)}\n`
}

/** The format tag a workspace file starts with (DESIGN.md, "Files that leave the app"). */
const WORKSPACE_FORMAT = /^\s*\{\s*"format"\s*:\s*"toolstep\.workspace"/

/**
 * True when `text` is a Toolstep workspace file: a JSON object whose `format` is
 * `toolstep.workspace`, wherever the key sits. Only an object that names the format somewhere is
 * parsed for this, so other logs are not read twice. A log importer would take a workspace for a
 * one-message log (it is a JSON object), so readers of logs ask this first. Never throws.
 */
export function isWorkspaceText(text: string): boolean {
  const body = text.replace(/^\uFEFF/, '')
  if (WORKSPACE_FORMAT.test(body)) return true
  if (!/^\s*\{/.test(body) || !body.includes('"toolstep.workspace"')) return false
  try {
    const value: unknown = JSON.parse(body)
    return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'toolstep.workspace'
  } catch {
    return false
  }
}
