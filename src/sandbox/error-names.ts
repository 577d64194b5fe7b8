/**
 * The one list of error names the sandbox runtime gives problems it found itself (as opposed to
 * errors user code threw). Their message alone is the clearest text for the user and the model,
 * so the host and code-as-action blocks both print such errors without the name in front.
 */
export const SANDBOX_ERROR_NAMES = {
  /** The call named no loaded tool (or alias). */
  unknownTool: 'UnknownToolError',
  /** The arguments failed the tool's zod schema. */
  invalidArguments: 'InvalidArgumentsError',
  /** A code block called a tool marked dangerous (which needs the user's confirmation). */
  dangerousTool: 'DangerousToolError',
  /** The tool returned a value with no JSON form. */
  resultSerialization: 'ResultSerializationError',
  /** `route()` returned something other than known tool names. */
  invalidRoute: 'InvalidRouteError',
  /** `summarize()` returned something other than a string. */
  invalidSummary: 'InvalidSummaryError',
  /** `model.ts` returned something other than a string or an assistant message. */
  invalidModelOutput: 'InvalidModelOutputError',
  /** User code ran past its time budget without a pause and the VM interrupted it (browser sandbox). */
  interrupted: 'InterruptedError',
  /** User code replaced, added or deleted properties of built-ins (they were put back). */
  builtinsChanged: 'BuiltinsChangedError',
} as const

/** One of {@link SANDBOX_ERROR_NAMES}. */
export type SandboxErrorName = (typeof SANDBOX_ERROR_NAMES)[keyof typeof SANDBOX_ERROR_NAMES]

const OWN = new Set<string>(Object.values(SANDBOX_ERROR_NAMES))

/** True when `name` is one the runtime gives its own findings (see {@link SANDBOX_ERROR_NAMES}). */
export function isSandboxErrorName(name: string): name is SandboxErrorName {
  return OWN.has(name)
}

/** `Name: message` for errors user code threw, the message alone for the runtime's own. */
export function formatSandboxError(error: { name: string; message: string }): string {
  return isSandboxErrorName(error.name) ? error.message : `${error.name}: ${error.message}`
}
