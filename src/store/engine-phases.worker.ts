/**
 * Browser Web Worker entry of the engine's parse and validate phases for big turns. Constructed
 * by `spawnPhaseWorker` in `engine-phases.ts` with
 * `new Worker(new URL('./engine-phases.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { servePhases, type PhasePort } from './engine-phases-protocol'

servePhases(self as unknown as PhasePort)
