import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { expect, openApp, test, timelineRows } from './fixtures'

test('export the run as a session file and re-import it: the identical timeline', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('xml-tag')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const before = await timelineRows(page)
  const answer = await page.getByTestId('final-answer').innerText()

  const download = page.waitForEvent('download')
  await page.getByTestId('export-menu').click()
  await page.getByTestId('export-session').click()
  const file = await (await download).path()
  const text = await readFile(file, 'utf8')
  expect(JSON.parse(text)).toMatchObject({ format: 'toolstep.session', version: 1 })

  await page.getByTestId('reset').click()
  await expect(page.getByTestId('timeline-item')).toHaveCount(0)
  await page.getByTestId('import-file').setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(text) })
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  expect(await timelineRows(page)).toEqual(before)
  await expect(page.getByTestId('final-answer')).toHaveText(answer)
})

test('toolstep run gives the same results as the playground for an exported workspace', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('protocol-select').selectOption('json')
  await page.getByTestId('run').click()
  await expect(page.getByTestId('stop-reason')).toHaveText('final_answer')
  const phases = await page.getByTestId('timeline-item').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-phase')))
  const answer = await page.getByTestId('final-answer').innerText()

  const download = page.waitForEvent('download')
  await page.getByTestId('export-menu').click()
  await page.getByTestId('export-workspace').click()
  const file = await (await download).path()

  const cli = spawnSync(process.execPath, ['bin/toolstep.js', 'run', file, '--json'], { encoding: 'utf8' })
  expect(cli.stderr).toBe('')
  expect(cli.status).toBe(0)
  const session = JSON.parse(cli.stdout) as { events: { type: string; reason?: string }[] }
  const PHASE: Record<string, string> = {
    'session.started': 'start', 'model.responded': 'decide', 'model.failed': 'decide', 'parse.completed': 'parse',
    'validate.completed': 'validate', 'tool.finished': 'execute', 'backfill.completed': 'backfill', 'loop.stopped': 'stop',
  }
  expect(session.events.map((e) => PHASE[e.type])).toEqual(phases)
  const run = spawnSync(process.execPath, ['bin/toolstep.js', 'run', file], { encoding: 'utf8' })
  expect(run.stdout).toContain(`Final answer: ${answer}`)
})
