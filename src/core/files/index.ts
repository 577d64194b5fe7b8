/**
 * Public surface of core/files: the workspace and session file formats Toolstep reads and
 * writes (`toolstep.workspace` / `toolstep.session`, version 1; see DESIGN.md "Files that leave the app").
 */
export {
  readWorkspace,
  isWorkspaceText,
  writeWorkspace,
  workspaceSchema,
  settingsSchema,
  type ReadResult,
  type Settings,
  type SettingsInput,
  type Workspace,
} from './workspace-file'
export { readSession, writeSession, sessionFileSchema, type SessionFile } from './session-file'
export { messageFingerprint, recordedTurns, writeMockModel, type RecordedTurn } from './mock-model'
