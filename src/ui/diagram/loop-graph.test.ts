import { afterAll, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/loop'
import { LoopRunner } from '../../core/loop'
import { runInitFor } from '../../core/loop'
import { findLesson, lessonWorkspace, solvedWorkspace } from '../../lessons/index'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { edgeCounts, nextEventOfPhase } from './loop-graph'

const sandbox = createNodeSandbox()
afterAll(() => sandbox.dispose())

async function session(lessonId: string, solved = false): Promise<SessionEvent[]> {
  const lesson = findLesson(lessonId)!
  const file = lessonWorkspace(solved ? solvedWorkspace(lesson) : lesson.workspace)
  const loaded = await sandbox.load({ tools: file.tools, model: file.model })
  if (!loaded.ok) throw new Error('load failed')
  const runner = new LoopRunner({ model: sandbox, executor: sandbox, router: sandbox, summarizer: sandbox, codeRunner: sandbox, clock: () => 0 })
  runner.start(runInitFor({ input: file.input, settings: file.settings }, loaded.tools))
  await runner.run()
  return [...runner.events]
}

describe('loop diagram edges', () => {
  it('counts one decide→parse per model turn and one loop back per turn that called a tool', async () => {
    const events = await session('registry-tags') // two tool turns, then an answer
    const { counts } = edgeCounts(events)
    expect(counts.get('decide>parse')).toBe(3)
    expect(counts.get('backfill>decide')).toBe(2)
    expect(counts.get('execute>backfill')).toBe(2)
    expect(counts.get('start>decide')).toBe(1)
  })

  it('names the retry edge after a correction, and draws the stop edge the session took', async () => {
    const events = await session('fail-malformed-json') // no retries: a malformed call stops the loop
    const stopped = edgeCounts(events)
    expect([...stopped.counts.keys()].some((id) => id.endsWith('>stop'))).toBe(true)
    const withRetry = await (async () => {
      const lesson = findLesson('fail-malformed-json')!
      const file = lessonWorkspace({ ...lesson.workspace, loop: { ...lesson.workspace.loop, maxParseRetries: 2 } })
      const loaded = await sandbox.load({ tools: file.tools, model: file.model })
      if (!loaded.ok) throw new Error('load failed')
      const runner = new LoopRunner({ model: sandbox, executor: sandbox, router: sandbox, summarizer: sandbox, codeRunner: sandbox, clock: () => 0 })
      runner.start(runInitFor({ input: file.input, settings: file.settings }, loaded.tools))
      await runner.run()
      return [...runner.events]
    })()
    expect(edgeCounts(withRetry).counts.get('backfill>decide:retry')).toBe(1)
  })

  it('counts the fallback and final-turn edges', async () => {
    expect(edgeCounts(await session('fusion-fallback')).counts.get('parse>parse:fallback')).toBeGreaterThan(0)
    expect(edgeCounts(await session('step-cap')).counts.get('backfill>decide:finalTurn')).toBeUndefined()
    expect(edgeCounts(await session('step-cap', true)).counts.get('backfill>decide:finalTurn')).toBe(1)
  })

  it('finds the next event of a phase after the cursor, wrapping around', async () => {
    const events = await session('registry-tags')
    const first = nextEventOfPhase(events, -1, 'execute')
    expect(events[first]?.type).toBe('tool.finished')
    const second = nextEventOfPhase(events, first, 'execute')
    expect(second).toBeGreaterThan(first)
    expect(nextEventOfPhase(events, events.length - 1, 'start')).toBe(0)
    expect(nextEventOfPhase(events, 0, 'confirm')).toBe(-1)
  })
})
