/**
 * The workspace file: everything a user authored, enough to re-run it anywhere
 * (`{ "format": "toolstep.workspace", "version": 1, tools, model, settings, input }`).
 */
import { z } from 'zod'
import { DEFAULT_LOOP_SETTINGS, loopSettingsSchema, type LoopSettings } from '../loop/settings'
import { formatZodError } from './zod-error'
import { parseJsonText } from '../util/text-file'

/** Loop settings saved with a workspace. */
export const settingsSchema = z.object({
  /** Wire format id the model speaks (see the protocol registry). */
  protocol: z.string().min(1),
  /** Model turns before stopping with `max_steps`. */
  maxSteps: z.number().int().min(1).max(100),
  /** Extra system prompt text placed before the generated tool instructions. */
  systemPrompt: z.string().default(''),
  /** Loop behaviours (validation policy, retries, parallel calls, …); missing fields take defaults. */
  loop: loopSettingsSchema.default(DEFAULT_LOOP_SETTINGS),
})
export type Settings = z.infer<typeof settingsSchema>
/** Settings as written by hand or by older files: `loop` (and its fields) may be missing. */
export type SettingsInput = Omit<Settings, 'loop'> & { loop?: LoopSettings }

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
})
export type Workspace = z.infer<typeof workspaceSchema>

/** Result of reading a file: the value, or an error naming the path of the bad field. */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: string }

/** Parses and validates workspace JSON text, with or without a BOM. Never throws. */
export function readWorkspace(text: string): ReadResult<Workspace> {
  const json = parseJsonText(text)
  if (!json.ok) return json
  const parsed = workspaceSchema.safeParse(json.value)
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: `Not a Toolstep workspace: ${formatZodError(parsed.error)}` }
}

/** Serialises a workspace with stable key order (2-space JSON, trailing newline). */
export function writeWorkspace(workspace: Omit<Workspace, 'format' | 'version' | 'settings'> & { settings: SettingsInput }): string {
  const settings: Settings = { ...workspace.settings, loop: workspace.settings.loop ?? DEFAULT_LOOP_SETTINGS }
  const file: Workspace = { format: 'toolstep.workspace', version: 1, tools: workspace.tools, model: workspace.model, settings, input: workspace.input }
  return `${JSON.stringify(file, null, 2)}\n`
}
