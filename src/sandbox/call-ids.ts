/**
 * State behind `nextCallId()`: ids are `call_<step>_<n>`, where `step` is the decide phase the
 * model is answering. Deriving the id from the step (instead of one counter per sandbox) keeps ids
 * unique within a run even when the sandbox is respawned and reloaded after a timeout, and keeps
 * them identical between two runs of the same workspace.
 */

let currentStep = 0
let counter = 0

/**
 * Starts numbering for one model call. Called by the runtime before it invokes `model.ts`.
 * @param step - 0-based index of the decide phase.
 */
export function beginModelStep(step: number): void {
  currentStep = step
  counter = 0
}

/** Returns the next id for the current step: `call_0_1`, `call_0_2`, … */
export function takeCallId(): string {
  counter += 1
  return `call_${currentStep}_${counter}`
}
