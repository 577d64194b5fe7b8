/**
 * What the trace module tells people, as phrases: the per-occurrence details of anomalies and
 * the errors of a log import. The English `detail` / `error` strings are rendered from this
 * table (the CLI prints them, and `replay --summary --json` keeps them), and the UI translates
 * the same keys under `core.trace.<key>`. Values from the log (ids, tool names, finish reasons,
 * a provider's message, JSON paths) are parameters, shown as they are.
 */
import { phrase, phraseRef, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams, type PhraseRef } from '../util/phrase'

/** English templates (i18next syntax: `{{param}}`, `_one` / `_other` by `count`). */
export const TRACE_TEXT = {
  // Anomaly details (one sentence per occurrence; see anomalies.ts).
  truncatedCall_one: 'finish_reason "{{reason}}": the output hit the token limit inside the call to {{names}}, whose arguments are cut short ({{args}})',
  truncatedCall_other: 'finish_reason "{{reason}}": the output hit the token limit inside the calls to {{names}}, whose arguments are cut short ({{args}})',
  providerError: 'the provider reported an error: {{error}}',
  refusal: 'the model refused: "{{text}}"',
  toolsChanged: 'the request for this turn offers {{after}}, the one before (message {{message}}) offered {{before}} ({{delta}})',
  noTools: 'no tools',
  toolsAdded: 'added {{names}}',
  toolsDropped: 'dropped {{names}}',
  toolsAddedDropped: 'added {{added}}; dropped {{dropped}}',
  duplicateId: 'tool_call_id "{{id}}" (call to {{name}}) was already used by the call to {{earlier}} in message {{message}}',
  repeatedCall: '{{name}} was called with the same arguments {{times}} times in a row ({{args}})',
  truncatedInHistory_one: 'finish_reason "{{reason}}": the output was cut off at the token limit, yet its call to {{names}} stayed in the history that followed',
  truncatedInHistory_other: 'finish_reason "{{reason}}": the output was cut off at the token limit, yet its calls to {{names}} stayed in the history that followed',
  largeResult: 'the result is {{length}} characters long (over {{limit}})',
  largeResultOf: 'the result of {{name}} is {{length}} characters long (over {{limit}})',
  mismatchedOnly: 'tool_call_id "{{id}}" matches no waiting call; it evidently answers the call to {{name}} (tool_call_id "{{callId}}", message {{message}}), the only call of that turn still waiting',
  mismatchedSameName: 'tool_call_id "{{id}}" matches no waiting call; it evidently answers the call to {{name}} (tool_call_id "{{callId}}", message {{message}}), the only {{name}} call of that turn still waiting',
  orphanNoCall: 'no earlier call has tool_call_id "{{id}}"',
  exportRenamedIds_one: 'The model reused a tool_call_id, which the provider rejects: the export renames it, with its results: {{renames}}.',
  exportRenamedIds_other: 'The model reused tool_call_ids, which the provider rejects: the export renames them, with their results: {{renames}}.',
  orphanAnswered: 'the call with tool_call_id "{{id}}" was already answered by message {{message}}',
  outOfOrder: 'the result for call {{position}} ({{name}}) of message {{message}} comes after the result for call {{after}}; results do not follow the order of the calls',
  nameMismatch: 'answers the call to {{name}} (tool_call_id "{{id}}", message {{message}}) but is named {{named}}',
  unanswered: 'the call to {{name}} (tool_call_id "{{id}}") never gets a tool message',
  splitResult: '{{before}} {{where}} and drop the call to {{name}} (message {{partner}}) it answers{{more}}',
  splitCall: '{{before}} would keep the call to {{names}} here and drop its result (message {{partner}}), logged before it{{more}}',
  splitBeforeCall: 'keeping the last {{window}} messages before the model call at message {{request}}',
  splitBeforeNext: 'keeping the last {{window}} messages before the next model call',
  splitStartsHere: 'would start the history at this tool result',
  splitStartsAt: 'would start the history at message {{start}} and keep this tool result',
  splitMore_one: ' ({{count}} later model call would be split too)',
  splitMore_other: ' ({{count}} later model calls would be split too)',
  argumentsProblem: 'arguments of the call to {{name}} are {{problem}}',
  argumentsDoubleEncoded: 'arguments of the call to {{name}} are a JSON string holding JSON',
  unknownTool: 'Unknown tool {{name}}. Available tools: {{tools}}.',
  unknownToolNone: 'Unknown tool {{name}}. No tools are available.',
  schemaViolation: '{{name}}: {{problems}}',
  /** Two items of a list written with semicolons (validation problems). */
  listSemicolon: '{{head}}; {{tail}}',
  // Why a call's `arguments` string is unusable (arguments.ts), inside `argumentsProblem`.
  argsNotJson: 'not valid JSON ({{error}})',
  argsTooDeep: 'nested deeper than {{limit}} levels (the limit for arguments)',
  argsNotObject: 'not a JSON object (got {{kind}})',
  // Import errors (import-log.ts, log-document.ts). `what` is what was recognised, as the importer says it.
  importEmpty: 'The file is empty.',
  importNotJson: 'Not valid JSON: {{error}}.',
  importTooDeep: 'The JSON nests deeper than {{limit}} levels (objects and arrays inside one another), more than Toolstep reads.',
  importLineTooDeep: 'Line {{line}}: The JSON nests deeper than {{limit}} levels (objects and arrays inside one another), more than Toolstep reads.',
  importNotJsonLines: 'Not valid JSON lines: line {{line}}: {{error}}.',
  importBadField: 'Recognised {{what}}, but {{path}}: {{problem}}.',
  importFailed: 'Could not import {{what}}: {{error}}',
  notRecognisedEmpty: 'Not a recognised log: the file is an empty array.',
  notRecognised: 'Not a recognised log: {{sample}}; expected {{supported}}.',
  supported:
    'an OpenAI Chat Completions log (messages, request/response pairs, JSONL, stream chunks), an OpenAI Responses API log, Anthropic Messages, OpenTelemetry GenAI or OpenInference spans, a Langfuse trace, Vercel AI SDK messages, or a Toolstep session file',
  sampleLine: 'line {{line}} is {{value}}',
  sampleFirst: '[0] is {{value}}',
  sampleEmptyArray: 'the file is an empty array',
  sampleFileObject: 'the file is an object with {{keys}}',
  sampleFileJson: 'the file is a JSON {{kind}}',
  valueObject: 'an object with {{keys}}',
  valueKind: 'a {{kind}}',
  keysNone: 'no keys',
  keysSome: 'keys {{list}}',
  keysMany: 'keys {{list}}, … ({{total}} in all)',
  notSession: 'Not a Toolstep session file: expected an object with "format": "toolstep.session".',
  wrongFormat: 'The file does not look like {{title}} ({{format}}): it looks like {{otherTitle}} ({{other}}): {{reason}}. Use that format, or auto.',
  readAsLines_one: '{{count}} JSON line read as {{title}}',
  readAsLines_other: '{{count}} JSON lines read as {{title}}',
  readAsJson: 'a JSON {{kind}} read as {{title}}',
  theFile: 'the file',
  toolsFileBad: 'Not a usable tools file: {{path}}: {{problem}}.',
  toolsFileFailed: 'Not a usable tools file: {{error}}',
  // What is wrong with a field of a log (openai-log.ts, importers/), inside importBadField, toolsFileBad and captureBadField.
  fieldExpected: 'expected {{what}}, got {{got}}',
  fieldExpectedFound: 'expected {{what}}; found {{keys}}',
  fieldJsonText: 'expected JSON text, {{error}}',
  fieldJsonDeep: 'expected JSON text nested at most {{limit}} levels deep',
  fieldNotSession: 'expected an object with "format": "toolstep.session"',
  fieldNoGeneration: 'found Langfuse data, but no GENERATION observation',
  fieldNoModelSpan: 'found spans, but none of them records a model call',
  fieldToolCallId: 'a tool message needs a string "tool_call_id", got {{got}}',
  // Conversation labels (importers/, capture-files.ts): ids, names and counts from the log as they are.
  labelConversation: 'conversation {{index}}',
  labelCompletion: 'completion {{index}}',
  labelTask: 'task {{task}}',
  labelTrial: '{{head}} · trial {{trial}}',
  labelReward: '{{head}} · reward {{reward}}',
  labelTrace: 'trace {{trace}}',
  labelNamed: '{{head}} · {{name}}',
  labelStreamed: '{{head}} (streamed)',
  labelCalls: '{{head}} · {{n}} calls',
  labelTurns: '{{head}} · {{n}} turns',
  labelPart: '{{head}} · part {{n}}',
  // JSON kinds (arguments.ts `describeJson`), inside fieldExpected, sampleFileJson, valueKind, readAsJson, argsNotObject.
  kindNull: 'null',
  kindArray: 'array',
  kindObject: 'object',
  kindString: 'string',
  kindNumber: 'number',
  kindBoolean: 'boolean',
  kindOther: '{{kind}}',
  gotNoRole: 'no "role"',
  gotRole: 'role {{role}}',
  gotJsonLines: 'JSON lines',
  listOr: '{{a}} or {{b}}',
  listComma: '{{a}}, {{b}}',
  expOneOf: 'one of {{values}}',
  expForText: '{{roles}} for text content',
  expObject: 'an object',
  expArray: 'an array',
  expString: 'a string',
  expJsonString: 'a JSON string',
  expStreamEvent: 'a stream event object',
  expChoices: 'an array of choices',
  expChoice: 'a choice object',
  expOneJsonValue: 'one JSON value',
  expConversations: 'an array of conversations',
  expConversation: 'a conversation (a messages array or an object with "messages" or "traj")',
  expChunk: 'a chat.completion.chunk object',
  expFragment: 'a tool call fragment',
  expStringNullParts: 'a string, null or an array of content parts',
  expContentPartObject: 'a content part object',
  expToolCalls: 'an array of tool calls',
  expToolCallObject: 'a tool call object',
  expFunction: 'an object with "name" and "arguments"',
  expToolDefinitions: 'an array of tool definitions',
  expToolDefinition: 'a tool definition object',
  expToolName: 'a tool name',
  expSchema: 'a JSON Schema object',
  expMessages: 'an array of messages',
  expMessage: 'a message object',
  expAnthropicKeys: '"messages" (a request) or a response with "content"',
  expChatKeys: '"messages" or "traj" (an array of messages), or a request/response pair',
  expResponsesKeys: '"input" (a request) or "output" (a response)',
  expVercelKeys: '"messages", "steps" or "response.messages"',
  expAiSdkRecord: 'AI SDK messages or a generateText result',
  expResponsesRecord: 'a Responses API request, response or item array',
  expUiMessage: 'a UI message',
  expContentBlock: 'a content block',
  expContentPart: 'a content part',
  expMessagePart: 'a message part',
  expStep: 'a step object',
  expStringOrBlocks: 'a string or an array of content blocks',
  expStringOrContentParts: 'a string or an array of content parts',
  expStringOrParts: 'a string or an array of parts',
  expToolInvocation: 'a tool invocation',
  expAnthropicRecord: 'an Anthropic request, response or messages array',
  expUiMessages: 'an array of UI messages',
  expItems: 'an array of input or output items',
  expItem: 'an item object',
  expParts: 'an array of parts',
  expToolInvocations: 'an array of tool invocations',
  expToolCall: 'a tool call',
  expToolResult: 'a tool result',
  // What an importer recognised (its detection), a noun phrase inside "Recognised …" and "it looks like …".
  recogAnthropic: 'an Anthropic Messages {{what}}',
  recogAnthropicCounted: 'an Anthropic Messages {{what}} ({{n}})',
  recogAnthropicStream: 'an Anthropic Messages stream ({{events}} as {{carrier}})',
  recogLangfuseTrace: 'a Langfuse trace with observations',
  recogLangfuseSession: 'a Langfuse session ({{traces}}) with observations',
  recogLangfuseObservations: 'a list of Langfuse observations',
  recogChatMessages: 'an OpenAI Chat Completions messages array ({{messages}})',
  recogChatPair: 'an OpenAI Chat Completions request/response pair',
  recogChatRequest: 'an OpenAI Chat Completions request (an object with "messages")',
  recogChatResponse: 'an OpenAI Chat Completions response',
  recogChatLists: 'a list of {{conversations}} (messages arrays)',
  recogChatRecords: 'a list of {{conversations}} (records with "{{key}}")',
  recogChatPairs: 'a list of {{pairs}}',
  recogChatItems_one: 'an array of {{n}} item read as conversations',
  recogChatItems_other: 'an array of {{n}} items read as conversations',
  recogChatJsonl: 'an OpenAI Chat Completions JSONL log ({{lines}} of {{what}})',
  recogChatStream: 'an OpenAI Chat Completions stream ({{chunks}} as {{carrier}})',
  recogResponses: 'an OpenAI Responses API {{what}}',
  recogResponsesCounted: 'an OpenAI Responses API {{what}} ({{n}})',
  recogResponsesStream: 'an OpenAI Responses API stream ({{events}} as {{carrier}})',
  recogSpans: '{{what}} ({{container}}; {{calls}} among the first {{spans}})',
  recogSession: 'a Toolstep session file',
  recogVercel: 'Vercel AI SDK {{what}}',
  whatBlocksArray: 'messages array with tool_use/tool_result blocks',
  whatWithBlocks: '{{what}} with tool_use/tool_result blocks',
  whatPair: 'request/response pair',
  whatRequest: 'request',
  whatResponse: 'response',
  whatPairs: 'request/response pairs',
  whatRequests: 'requests',
  whatResponses: 'responses',
  whatItemArray: 'item array',
  whatInputItems: 'input-items list',
  whatRequestResponse: 'request/response',
  whatGenAiEvents: 'OpenTelemetry GenAI spans with gen_ai.*.message events',
  whatTraceloop: 'Traceloop/OpenLLMetry spans with gen_ai.prompt.N attributes',
  whatGenAi: 'OpenTelemetry GenAI spans with gen_ai.input.messages',
  whatOpenInference: 'OpenInference spans with llm.input_messages',
  whatUiMessages: 'UI messages ({{messages}} with parts or toolInvocations)',
  whatUiChat: 'UI messages (a chat of {{messages}})',
  whatGenerateText: 'generateText result ({{steps}})',
  whatPartsArray: 'messages array with tool-call/tool-result parts',
  whatParts: 'messages with tool-call/tool-result parts',
  carrierSse: 'server-sent events',
  carrierJsonl: 'JSONL',
  carrierArray: 'a JSON array',
  containerOtlp: 'OTLP JSON',
  containerJsonl: 'JSONL spans',
  containerList: 'a span list',
  countLine_one: '{{count}} line',
  countLine_other: '{{count}} lines',
  countRecord_one: '{{count}} record',
  countRecord_other: '{{count}} records',
  countEvent_one: '{{count}} event',
  countEvent_other: '{{count}} events',
  countTrace_one: '{{count}} trace',
  countTrace_other: '{{count}} traces',
  countMessage_one: '{{count}} message',
  countMessage_other: '{{count}} messages',
  countConversation_one: '{{count}} conversation',
  countConversation_other: '{{count}} conversations',
  countPair_one: '{{count}} request/response pair',
  countPair_other: '{{count}} request/response pairs',
  countChunk_one: '{{count}} chat.completion.chunk',
  countChunk_other: '{{count}} chat.completion.chunks',
  countModelCallSpan_one: '{{count}} model-call span',
  countModelCallSpan_other: '{{count}} model-call spans',
  countSpan_one: '{{count}} span',
  countSpan_other: '{{count}} spans',
  countStep_one: '{{count}} step',
  countStep_other: '{{count}} steps',
  // The log-import worker and its host (src/sandbox/log-import-*.ts).
  workerCannotOpen: 'The file cannot be opened: {{error}}',
  workerPartCannotOpen: '{{file}}: The file cannot be opened: {{error}}',
  workerReadFailed: 'The file could not be read ({{error}}).',
  workerNoConversation: 'the log holds no conversation.',
  workerLogEmpty: 'The log has no conversation.',
  workerTooFew_one: 'The log has {{total}} conversation, not {{n}}.',
  workerTooFew_other: 'The log has {{total}} conversations, not {{n}}.',
  workerImportFailed: 'Import failed: {{error}}',
  workerNoLog: 'No log is open.',
  workerNoConversationAt: 'No conversation {{n}} in the open log.',
  workerStopped: 'The import worker stopped: {{error}}',
  workerUnknownError: 'unknown error',
  workerNoAnswer: 'The import worker did not answer.',
  workerListed: 'The import worker listed {{listed}} of {{total}} conversations.',
  workerUnexpected: 'Unexpected reply from the import worker: {{type}}.',
  workerClosed: 'The log was closed.',
  workerCancelled: 'Cancelled.',
  // Recorded request/response files (capture-files.ts).
  noFile: 'No file to import.',
  inFile: '{{file}}: {{error}}',
  captureSession: '{{file}} is a Toolstep session file: open it on its own.',
  captureTwoRequests: '{{file}} and {{other}} are both the request of turn {{turn}} of {{capture}}.',
  captureTwoResponses: '{{file}} and {{other}} are both the response of turn {{turn}} of {{capture}}.',
  captureNotObject: '{{file}}: expected one JSON object (a request body).',
  captureUnknown: '{{capture}}: the turns are not OpenAI Chat Completions, OpenAI Responses or Anthropic Messages requests and responses.',
  captureBadField: '{{capture}}: {{path}}: {{problem}}.',
} as const satisfies Record<string, string>

/** A key of {@link TRACE_TEXT} without its plural suffix. */
export type TraceTextKey = CatalogueKey<typeof TRACE_TEXT>

/** A phrase of {@link TRACE_TEXT}. */
export function tracePhrase(key: TraceTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** A phrase of {@link TRACE_TEXT} as a parameter of another phrase. */
export function traceRef(key: TraceTextKey, params?: PhraseParams): PhraseRef {
  return phraseRef('trace', phrase(key, params), TRACE_TEXT)
}

/** `p` (a phrase of {@link TRACE_TEXT}) in English. */
export function traceEnglish(p: Phrase): string {
  return renderPhrase(p, TRACE_TEXT)
}

/** What an importer recognised: the English (`reason`, as errors print it) and the same as a phrase of {@link TRACE_TEXT}. */
export interface Recognised {
  reason: string
  phrase: Phrase
}

/** The recognition `key` of {@link TRACE_TEXT} (e.g. `recogSession`, `a Toolstep session file`). */
export function recognised(key: TraceTextKey, params?: PhraseParams): Recognised {
  const p = phrase(key, params)
  return { reason: renderPhrase(p, TRACE_TEXT), phrase: p }
}

/** A key of {@link TRACE_TEXT} naming what a field should have held (`expMessages`, `an array of messages`). */
export type ExpectedKey = Extract<TraceTextKey, `exp${string}`>

/** `expected {{what}}, got {{got}}`: `got` is a JSON kind (`string`, `null`, …) or a phrase. */
export function expectedGot(what: ExpectedKey | Phrase, got: string | Phrase): Phrase {
  return phrase('fieldExpected', { what: typeof what === 'string' ? phrase(what) : what, got })
}

/** `values` as one phrase, `"a", "b" or "c"` (English list punctuation; each value as it is). */
export function orList(values: readonly [string, string, ...string[]]): Phrase {
  let list: Phrase = phrase('listOr', { a: values[values.length - 2]!, b: values[values.length - 1]! })
  for (let i = values.length - 3; i >= 0; i--) list = phrase('listComma', { a: values[i]!, b: list })
  return list
}
