/**
 * Marks objects made by `tool()`. `Symbol.for` (not a module-local symbol) so the mark survives
 * if the authoring module is ever instantiated twice in one realm, e.g. by a bundler duplicate.
 */
export const TOOL_MARKER: unique symbol = Symbol.for('toolstep.tool') as never
