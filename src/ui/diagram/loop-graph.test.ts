import { afterAll, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/loop'
import { LoopRunner } from '../../core/loop'
import { runInitFor } from '../../core/loop'
import { findLesson, lessonWorkspace, solvedWorkspace } from '../../lessons/index'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { breakpointMarks, edgeCounts, nextEventOfPhase } from './loop-graph'

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

describe('breakpointMarks', () => {
  it('marks the node each enabled breakpoint stops before or after; anomaly and bare conditions mark none', () => {
    const marks = breakpointMarks([
      { id: 'b1', enabled: true, on: { kind: 'before', phase: 'execute' }, condition: "call.name == 'charge'" },
      { id: 'b2', enabled: true, on: { kind: 'event', type: 'tool.finished' }, condition: '' },
      { id: 'b3', enabled: true, on: { kind: 'turn', turn: 3 }, condition: '' },
      { id: 'b4', enabled: false, on: { kind: 'after', phase: 'parse' }, condition: '' },
      { id: 'b5', enabled: true, on: { kind: 'anomaly' }, condition: '' },
      { id: 'b6', enabled: true, on: { kind: 'any' }, condition: 'turn > 1' },
    ])
    expect(Object.fromEntries(marks)).toEqual({ execute: { before: true, after: true }, decide: { before: true, after: false } })
  })
})

describe('edgeCounts with an edit', () => {
  it('goes around an edit.applied: decide → parse, no edge to or from the edit', () => {
    const events = [
      { seq: 0, at: 0, type: 'session.started', source: 'live', protocol: 'json', tools: [], messages: [], maxSteps: 4 },
      { seq: 1, at: 0, type: 'model.responded', step: 0, raw: 'a', durationMs: 1 },
      { seq: 2, at: 0, type: 'edit.applied', target: 'model_output', editedSeq: 1, original: 'a', edited: 'b' },
      { seq: 3, at: 0, type: 'parse.completed', protocol: 'json', calls: [], text: 'b', repairs: [], errors: [] },
    ] as SessionEvent[]
    const { edges, counts } = edgeCounts(events)
    expect(counts.get('decide>parse')).toBe(1)
    expect(edges.some((e) => e.from === 'edit' || e.to === 'edit')).toBe(false)
  })
})
