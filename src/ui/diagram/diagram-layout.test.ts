import { describe, expect, it } from 'vitest'
import { BASE_LABEL, diagramGeometry, fitDiagram } from './diagram-layout'

// "validate" in a sans-serif bold is about 4.3 font sizes wide; a one-digit count about 0.55.
const NODE_TEXT = 4.3
const COUNT = 0.55

/** The edge labels' size on screen, in CSS px, once the drawing is scaled into its box. */
function shownPx(boxWidth: number, boxHeight: number, targetPx: number): number {
  const g = fitDiagram(8, targetPx, boxWidth, boxHeight, NODE_TEXT, COUNT)
  return g.label * Math.min(boxWidth / g.width, boxHeight / g.height)
}

describe('loop diagram geometry', () => {
  it('at the smallest label size is the drawing as designed: 800 units wide, nodes 84 × 30, 100 apart', () => {
    const g = diagramGeometry(8, BASE_LABEL, NODE_TEXT, COUNT)
    expect(g.width).toBe(800)
    expect([g.nodeW, g.nodeH, g.step]).toEqual([84, 30, 100])
  })

  it('shows the edge labels at the size asked for when the box has room (never smaller), so they follow the text size', () => {
    // A wide presenter screen: the box is 1152 × 216 px. At 100 % the drawing as designed already
    // shows them larger than asked for; at 150 % they are as asked, at 200 % larger still.
    expect(shownPx(1152, 216, 12)).toBeGreaterThanOrEqual(12)
    expect(shownPx(1152, 216, 18)).toBeCloseTo(18, 0)
    expect(shownPx(1152, 216, 24)).toBeGreaterThan(20)
  })

  it('in a box too small for the size asked for, labels still grow with it (not fixed at the box’s scale)', () => {
    // 1280 × 720 at 150 % text with the Lessons panel open: about 900 × 144 px.
    const at100 = shownPx(900, 144, 12)
    const at150 = shownPx(900, 144, 18)
    const at200 = shownPx(900, 144, 24)
    expect(at150).toBeGreaterThan(at100 * 1.2)
    expect(at200).toBeGreaterThanOrEqual(at150)
    // A fixed 800 × 150 drawing in that box showed 11 units at 0.96: 10.6 px whatever the text size.
    expect(at150).toBeGreaterThan(14)
  })

  it('widens the nodes for their text and spaces the arcs for the labels between them', () => {
    const g = diagramGeometry(8, 22, NODE_TEXT, COUNT)
    expect(g.nodeW).toBeGreaterThanOrEqual(NODE_TEXT * g.node)
    expect(g.lane).toBeGreaterThan(g.label)
    expect(g.step - g.nodeW).toBeGreaterThan(COUNT * g.label)
    // The three arcs back and their labels fit above the row, inside the drawing.
    expect(g.rowY - g.nodeH / 2 - (22 + g.lift + 2 * g.lane)).toBeGreaterThanOrEqual(0)
  })

  it('keeps the smallest geometry when the box is not laid out yet', () => {
    expect(fitDiagram(8, 12, 0, 0, NODE_TEXT, COUNT).label).toBe(BASE_LABEL)
  })
})
