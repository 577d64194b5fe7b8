/**
 * The zh-CN → zh-TW conversion behind scripts/zh-tw.mjs: OpenCC (cn → twp), then the Taiwan terms
 * of the glossary table. Pure: an object of strings in, the same shape out.
 */
import * as OpenCC from 'opencc-js'

/**
 * Glossary rows whose zh-TW term differs from the OpenCC conversion of the zh-CN one, as
 * [converted, wanted] pairs, longest first. The table's columns: English | zh-CN | zh-TW | …
 */
export function glossaryReplacements(glossary, convert, convertCharacters = convert) {
  const pairs = []
  for (const line of glossary.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    if (cells.length < 5 || cells[1] === 'English' || /^-+$/.test(cells[1])) continue
    const [cn, tw] = [cells[2], cells[3]]
    if (!cn || !tw || /[`a-zA-Z]/.test(cn)) continue
    const wantedVariants = tw.split(/[/／]/).map((v) => v.trim())
    for (const [index, variant] of cn.split(/[/／]/).entries()) {
      // One character is too short to replace safely inside other words (课 in 课程).
      if (variant.trim().length < 2) continue
      // The n-th Simplified variant maps to the n-th Traditional one (or the first, when there are fewer).
      const wanted = wantedVariants[index] ?? wantedVariants[0] ?? ''
      // Phrase conversion depends on the neighbours, so the character-only form can survive too.
      for (const converted of new Set([convert(variant.trim()), convertCharacters(variant.trim())])) {
        if (converted && converted !== wanted) pairs.push([converted, wanted])
      }
    }
  }
  return pairs.sort((a, b) => b[0].length - a[0].length)
}

/** `value` with every string converted to Traditional Chinese (Taiwan) and the glossary applied. */
export function toTraditional(value, glossary) {
  const convert = OpenCC.Converter({ from: 'cn', to: 'twp' })
  const replacements = glossaryReplacements(glossary, convert, OpenCC.Converter({ from: 'cn', to: 'tw' }))
  const walk = (node) => {
    if (typeof node === 'string') {
      let out = convert(node)
      for (const [from, to] of replacements) out = out.split(from).join(to)
      // Taiwan writes corner brackets for quotation marks.
      return out.replace(/“/g, '「').replace(/”/g, '」')
    }
    if (Array.isArray(node)) return node.map(walk)
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]))
    return node
  }
  return walk(value)
}
