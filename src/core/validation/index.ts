/** Argument checking and tool lookup, with problems phrased for the model. */
export { validateArguments } from './validate-arguments'
export { resolveTool, unknownToolMessage, type ToolCollection } from './resolve-tool'
