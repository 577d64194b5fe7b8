/**
 * Geometry of the loop diagram for a given label size. The SVG is scaled to its box, so a fixed
 * drawing shows its labels at a size set by the box, not by the text size: on a projected laptop
 * at 150 % they came out at 9 px beside 36 px narration. Here the labels' size (in viewBox units)
 * is chosen so that, once the drawing is scaled into its box, they show at the size asked for
 * (a fraction of 1rem); the nodes, gaps and arc lanes grow only as much as the larger labels need.
 */

/** The drawing for one label size, in viewBox units. */
export interface DiagramGeometry {
  /** Edge label font size. */
  label: number
  /** Node label font size. */
  node: number
  nodeW: number
  nodeH: number
  /** Distance between two nodes' centres. */
  step: number
  /** Vertical distance between two arcs of the same pair of nodes. */
  lane: number
  /** How much taller than the base the arcs' curves are (labels need room between them). */
  lift: number
  /** The nodes' row, at their vertical centre. */
  rowY: number
  width: number
  height: number
  /** The centre of node `index`. */
  x(index: number): number
}

/** The smallest edge label size, in units (the drawing as first designed: 800 × 126 units). */
export const BASE_LABEL = 11
const MARGIN = 8

/**
 * The drawing for edge labels of `label` units. `nodeTextPerUnit` is the widest node label's
 * width at a font size of 1 unit (bold); `countPerUnit` the widest count's (a plain edge's number).
 */
export function diagramGeometry(nodes: number, label: number, nodeTextPerUnit: number, countPerUnit: number): DiagramGeometry {
  const node = (label * 13) / BASE_LABEL
  const nodeW = Math.max(84, nodeTextPerUnit * node + node * 0.9)
  const nodeH = Math.max(30, node * 2)
  const step = nodeW + Math.max(16, countPerUnit * label + 8)
  const lane = Math.max(14, label + 4)
  const lift = label - BASE_LABEL
  // Room above the row: three arcs back (lanes 0–2), each with its label inside its curve.
  const rowY = 5 + 22 + lift + 2 * lane + nodeH / 2
  const height = rowY + nodeH / 2 + 22 + lift + label * 1.2 + 6
  const width = 2 * MARGIN + nodeW + (nodes - 1) * step
  return { label, node, nodeW, nodeH, step, lane, lift, rowY, width, height, x: (index) => MARGIN + nodeW / 2 + index * step }
}

/**
 * The geometry whose edge labels show at `targetPx` CSS px once scaled into a box of
 * `boxWidth` × `boxHeight` px (the SVG keeps its aspect ratio, so the smaller of the two scales
 * applies). Where the box is too small for labels that large, they come out as large as it allows
 * (never below {@link BASE_LABEL} units, never above three times that).
 */
export function fitDiagram(nodes: number, targetPx: number, boxWidth: number, boxHeight: number, nodeTextPerUnit: number, countPerUnit: number): DiagramGeometry {
  let geometry = diagramGeometry(nodes, BASE_LABEL, nodeTextPerUnit, countPerUnit)
  if (!(boxWidth > 0 && boxHeight > 0 && targetPx > 0)) return geometry
  // The label size and the scale depend on each other; a few rounds settle it (each step moves less).
  for (let round = 0; round < 8; round++) {
    const scale = Math.min(boxWidth / geometry.width, boxHeight / geometry.height)
    const label = Math.min(3 * BASE_LABEL, Math.max(BASE_LABEL, targetPx / scale))
    if (Math.abs(label - geometry.label) < 0.05) break
    geometry = diagramGeometry(nodes, label, nodeTextPerUnit, countPerUnit)
  }
  return geometry
}
