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
