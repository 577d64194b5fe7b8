/**
 * What the parse phase says about model output (repairs, parse errors, fallback detection), as
 * phrases: a key of {@link PARSE_TEXT} and its parameters. Every repair and error keeps its
 * English `message` (rendered from this table, so the CLI and `--json` print what they always
 * did, and the retry message the model receives is unchanged) and carries the phrase beside it,
 * which the UI translates (`core.parse.<key>` in its resources; the English is this table).
 * Values from the output itself (names, keys, excerpts, offsets) are parameters and stay verbatim.
 */
import { phrase, renderPhrase, type CatalogueKey, type Phrase, type PhraseParams } from './phrase'

/** English templates (i18next syntax: `{{param}}`, `{{param, lowerFirst}}`, `_one` / `_other` by `count`). */
export const PARSE_TEXT = {
  // Repairs of the lenient JSON reader.
  jsonSingleQuotes: 'Read single-quoted strings as JSON strings.',
  jsonInvalidUnicodeEscape: 'Kept the invalid escape \\u{{hex}} verbatim.',
  jsonUnknownEscape: 'Kept the unknown escape \\{{char}} verbatim.',
  jsonRawNewline: 'Kept a raw line break inside a string.',
  jsonControlCharacter: 'Kept a raw control character inside a string.',
  jsonPythonLiteral: 'Read Python {{word}} as {{value}}.',
  jsonMissingCloser: 'Added the missing {{closers}} at the end of the input.',
  jsonKeyMissingQuote: 'Supplied the missing opening quote of the key "{{key}}".',
  jsonUnquotedKey: 'Read the unquoted key {{key}} as "{{key}}".',
  jsonPythonTuple: 'Read the Python tuple at offset {{offset}} as a JSON array.',
  jsonTrailingComma: 'Ignored the trailing comma at offset {{offset}}.',
  jsonMissingComma: "Supplied a missing ',' before offset {{offset}}.",
  repeatedRepair: '{{repair}} ({{n}} places; the first is marked)',
  // Why the JSON reader stopped.
  jsonStringCut: 'The JSON ends inside the string that starts at offset {{offset}} ({{excerpt}}): expected a closing {{quote}} before the end.',
  jsonEscapeCut: 'The JSON ends inside an escape sequence at offset {{at}} in the string that starts at offset {{offset}}.',
  jsonUnicodeEscapeCut: 'The JSON ends inside the \\u escape at offset {{at}}: expected four hex digits.',
  jsonMinusCut: "The JSON ends after '-' at offset {{offset}}: expected digits.",
  jsonMinusDigit: "Expected a digit after '-' at offset {{offset}}, found {{found}}.",
  jsonFractionCut: "The JSON ends inside the number at offset {{offset}}: expected digits after '.'.",
  jsonFractionDigit: "Expected a digit after '.' in the number at offset {{offset}}, found {{found}}.",
  jsonExponentCut: 'The JSON ends inside the exponent of the number at offset {{offset}}.',
  jsonExponentDigit: 'Expected a digit in the exponent of the number at offset {{offset}}, found {{found}}.',
  jsonLiteralCut: "The JSON ends inside '{{word}}' at offset {{offset}}.",
  jsonUnquotedValue: "Expected a value at offset {{offset}}, found '{{word}}' (strings must be quoted).",
  jsonExpectedKey: 'Expected a property name in double quotes at offset {{offset}}, found {{found}}.',
  jsonKeyCut: 'The JSON ends after the key "{{key}}": expected \':\' and a value.',
  jsonExpectedColon: 'Expected \':\' after the key "{{key}}" at offset {{offset}}, found {{found}}.',
  jsonEmpty: 'Expected a JSON value, found the end of the input.',
  jsonValueCut: 'The JSON ends where the value of "{{key}}" was expected.',
  jsonItemCut: 'The JSON ends where an array item was expected.',
  jsonTooDeep: 'Nesting deeper than {{max}} levels at offset {{offset}}.',
  jsonOpenCut: "The JSON ends right after '{{open}}' at offset {{offset}}.",
  jsonExpectedValue: 'Expected a JSON value at offset {{offset}}, found {{found}}.',
  jsonNumberCut: 'The JSON ends inside the number at offset {{offset}}: it may have been cut off.',
  jsonCommaCutMember: "The JSON ends after ',' at offset {{offset}}: expected another member.",
  jsonCommaCutItem: "The JSON ends after ',' at offset {{offset}}: expected another item.",
  jsonExpectedAfterMember: 'Expected {{expected}} after the value of "{{key}}" at offset {{offset}}, found {{found}}.',
  jsonExpectedAfterItem: 'Expected {{expected}} after an array item at offset {{offset}}, found {{found}}.',
  jsonInternal: 'Internal reader error: {{error}}',
  // A character as a diagnosis names it.
  charEnd: 'the end of the input',
  charLineBreak: 'a line break',
  charTab: 'a tab',
  charControl: 'control character U+{{hex}}',
  charQuoted: "'{{char}}'",
  // Call objects and their arguments.
  argsCutAtClose: 'The arguments of "{{name}}" were cut off: the output ends before their closing \'}\'.',
  argsArray: 'The arguments of "{{name}}" must be a JSON object, but they are an array.',
  argsNotObject: 'The arguments of "{{name}}" must be a JSON object, but they are a {{type}}.',
  argsCut: 'The arguments of "{{name}}" were cut off: {{problem, lowerFirst}} Offsets count from the start of the arguments.',
  argsCutDecoded: 'The arguments of "{{name}}" were cut off (after decoding them from a string): {{problem, lowerFirst}} Offsets count from the start of the arguments.',
  argsInvalid: 'The arguments of "{{name}}" are not valid JSON: {{problem, lowerFirst}} Offsets count from the start of the arguments.',
  argsInvalidDecoded: 'The arguments of "{{name}}" are not valid JSON (after decoding them from a string): {{problem, lowerFirst}} Offsets count from the start of the arguments.',
  extraCloser: 'Ignored the stray "{{rest}}" after the arguments of "{{name}}".',
  argsExtraText: 'The arguments of "{{name}}" have extra text after the JSON value at offset {{offset}}: "{{rest}}".',
  doubleEncodedTwice: 'Decoded the arguments of "{{name}}", which were JSON encoded twice.',
  argsEncodedTooOften: 'The arguments of "{{name}}" are encoded too many times.',
  callNotObject: 'Expected a JSON object with "name" and "arguments".',
  callNoName: 'The call has no "name": expected {"name": "<tool>", "arguments": {…}}.',
  callNameNotString: 'The "{{key}}" of the call must be a string.',
  callCutBeforeArgs: 'The call to "{{name}}" was cut off before its arguments.',
  keyOrder: 'Read "{{argumentsKey}}" written before "{{nameKey}}".',
  flattenedArguments: 'Read the keys {{keys}} beside "{{nameKey}}" as the arguments.',
  doubleEncoded: 'Decoded the arguments of "{{name}}" from a JSON string.',
  // Text formats.
  fenceAroundCall: 'Removed the Markdown code fence around the call.',
  fenceAroundCalls: 'Removed the Markdown code fence around the calls.',
  callInvalidJson: 'The call to "{{name}}" is not valid JSON: {{problem, lowerFirst}}',
  callCut: 'The call to "{{name}}" was cut off: {{problem, lowerFirst}}',
  callCutKeepCase: 'The call to "{{name}}" was cut off: {{problem}}',
  toolCallCut: 'The tool call was cut off: {{problem, lowerFirst}}',
  proseIgnored: 'Kept the prose around the call as text.',
  argsNotJson: 'The arguments of "{{name}}" are not valid JSON: {{problem, lowerFirst}}',
  argsNotJsonKeepCase: 'The arguments of "{{name}}" are not valid JSON: {{problem}}',
  // Text and native formats (markers, tags, brackets).
  anthropicNoName: 'Content block {{index}} is a tool_use without a "name".',
  callCutBeforeInput: 'The call to "{{name}}" was cut off before its input.',
  toolCallCutBefore: 'The tool call at offset {{offset}} was cut off before {{marker}}.',
  expectedInToolCall: 'Expected {{marker}} in the tool call at offset {{offset}}.',
  callWithoutClose: 'Read the call to "{{name}}" without {{marker}}.',
  endsAfterMarkerCall: 'The output ends right after {{marker}}: expected the call as JSON.',
  expectedObjectAfter: 'Expected a JSON object after {{marker}} at offset {{offset}}.',
  mistralEndsAfterMarker: 'The output ends right after {{marker}}: expected a tool name or a JSON array.',
  mistralExpectedName: "Expected a tool name or a JSON array after {{marker}} at offset {{offset}}, found '{{found}}'.",
  mistralCutBeforeArgs: 'The call to "{{name}}" was cut off: expected [ARGS] and the arguments after the name.',
  mistralExpectedArgs: "Expected [ARGS] after the tool name \"{{name}}\" at offset {{offset}}, found '{{found}}'.",
  openaiMessageInvalid: 'The assistant message is not valid JSON: {{problem}}',
  openaiNoName: 'tool_calls[{{index}}] has no function name.',
  missingOpenTag: 'Read the call before {{close}}, whose opening tag is missing.',
  invokeBlockEmpty: 'The {{blockOpen}} block holds no {{invoke}}> element.',
  callsWithoutClose: 'Read the calls without {{blockClose}}.',
  invokeExpectedInvoke: 'Expected {{invoke}} name="…"> or {{blockClose}} at offset {{offset}}.',
  invokeExpectedName: 'Expected {{invoke}} name="<tool>"> at offset {{offset}}.',
  invokeExpectedParameter: 'Expected {{parameter}} name="…"> or {{invokeClose}} in the call to "{{name}}" at offset {{offset}}.',
  invokeExpectedKey: 'Expected {{parameter}} name="<key>"> at offset {{offset}} in the call to "{{name}}".',
  tagCloseCut: 'Read the call without its {{close}}, which the output ended before.',
  tagExtraText: 'Ignored the text between the call and {{close}}.',
  tagCloseMissing: 'Read the call without its {{close}}; the text after it is prose.',
  tagExpectedFunction: 'Expected <function=NAME> after {{open}} at offset {{offset}}.',
  tagEmpty: 'The {{open}} tag is empty: expected {"name": "<tool>", "arguments": {…}} inside it.',
  tagBodyInvalid: 'The body of {{open}} is not valid JSON: {{problem}}',
  tagExpectedArgValue: 'Expected <arg_value> after the key "{{key}}" at offset {{offset}}.',
  tagExpectedGt: "Expected '>' after <parameter= at offset {{offset}}.",
  tagParameterWithoutClose: 'Read the parameter "{{key}}" without its </parameter>.',
  tagFunctionWithoutClose: 'Read <function={{name}}> without its </function>.',
  tagExpectedParameter: "Expected <parameter=KEY> or </function> in the call to \"{{name}}\" at offset {{offset}}, found '{{found}}'.",
  bracketCutName: "The call to \"{{name}}\" was cut off: expected ']' to close [TOOL:{{name}}|…].",
  bracketExpectedKeyValue: 'Expected key=value in the call to "{{name}}" at offset {{offset}}, found "{{segment}}".',
  bracketCutInsideArgs: 'The call to "{{name}}" was cut off inside [ARGS: …].',
  bracketCutAfterArgs: 'The call to "{{name}}" was cut off after [ARGS:.',
  bracketArgsWithoutClose: "Read [ARGS: …] of \"{{name}}\" without its closing ']'.",
  bracketEndsInside: "The output ends inside [TOOL: …] at offset {{offset}}: expected a tool name and ']'.",
  moreErrors_one: '{{count}} more error like these is not listed (only the first {{max}} are).',
  moreErrors_other: '{{count}} more errors like these are not listed (only the first {{max}} are).',
  bracketExpectedClose: "Expected ']' or '|' after the tool name \"{{name}}\" at offset {{offset}}, found '{{found}}'.",
  wrappedInvalid: 'The JSON after {{marker}} is not valid: {{problem, lowerFirst}}',
  endsAfterMarker: 'The output ends right after {{marker}}: expected the tool call JSON.',
  expectedJsonAfter: 'Expected a JSON object or array after {{marker}} at offset {{offset}}.',
  argsRunPastMessage: 'The arguments run past the end of the message.',
  harmonyCutBeforeMessage: 'The call to "{{name}}" was cut off before <|message|>.',
  cutAfterOpen: 'The output ends right after {{open}}.',
  cutInsideArgKey: 'The output ends inside <arg_key> at offset {{offset}}.',
  cutBeforeArgValue: 'The output ends before the <arg_value> of "{{key}}".',
  cutInsideArgValue: 'The output ends inside the <arg_value> of "{{key}}" (expected </arg_value>).',
  cutAfterArguments: 'The output ends after the arguments read so far, before {{close}}.',
  cutAfterFunction: 'The output ends right after <function={{name}}>.',
  cutInsideTag: 'The output ends inside a tag after the parameters read so far.',
  cutInsideParameterTag: 'The output ends inside <parameter= at offset {{offset}}.',
  cutInsideParameter: 'The output ends inside the value of "{{key}}" (expected </parameter>).',
  cutInsideMarker: 'The output ends inside {{marker}}.',
  cutAfterParameters: 'The output ends after the parameters read so far, before {{marker}}.',
  cutInsideValue: 'The output ends inside the value of "{{key}}" (expected {{close}}).',
  parameterNotJson: 'The parameter "{{key}}" of "{{name}}" is marked string="false" but is not JSON: {{problem, lowerFirst}}',
  textAfterValue: 'It has text after the value.',
  toolCallAfterCut: 'The tool call after {{marker}} was cut off: {{problem, lowerFirst}}',
  messageCut: 'The message was cut off: {{problem}}',
  callsInContent_one: 'The message has no tool_calls; read {{count}} call written in the content as {{protocol}}.',
  callsInContent_other: 'The message has no tool_calls; read {{count}} calls written in the content as {{protocol}}.',
  tagExpectedObject: "Expected a JSON object after {{open}} at offset {{offset}}, found '{{found}}'.",
  pythonicMissingComma: "Read the call at offset {{offset}} as the next item of the list, without a ',' before it.",
  // The parse phase of the loop.
  codeBlockOpen: 'The code block is not closed: expected ``` after the code.',
  unknownProtocol: 'Unknown protocol "{{id}}".',
  fallbackChain: 'Fallback chain: {{steps}}.',
  fallbackChainThen: 'Fallback chain: {{steps}}. {{detection}}',
  fallbackUnknown: '{{id}}: unknown protocol',
  fallbackMatched_one: '{{id}}: {{count}} call (matched)',
  fallbackMatched_other: '{{id}}: {{count}} calls (matched)',
  fallbackNoCall: '{{id}}: no call',
  // Why auto-detection picked a format (a detector's reason), and which candidates found nothing.
  detectFoundMarker: 'Found {{marker}} at offset {{at}}.',
  detectMarkerJson: 'Found {{marker}} at offset {{at}} followed by JSON.',
  detectTagJson: 'Found {{marker}} at offset {{at}} with a JSON body.',
  detectTagFunction: 'Found {{marker}} at offset {{at}} with <function=…> and <parameter=…> inside.',
  detectTagArgPairs: 'Found {{marker}} at offset {{at}} with a name and <arg_key>/<arg_value> pairs.',
  detectOrphanClose: 'Found a JSON call at offset {{at}} followed by {{close}} without its opening tag.',
  detectAnthropicMessage: 'The output is a JSON message of typed content blocks (Anthropic).',
  detectAnthropicBlocks: 'The output is an array of typed content blocks (Anthropic).',
  detectCommandRBlock: 'Found a Command R Action: ```json block at offset {{at}}.',
  detectGlm4: 'The output is a tool name on its own line followed by JSON arguments (GLM-4).',
  detectJsonObject: 'Found a JSON tool-call object at offset {{at}}.',
  detectLlama3Bare: 'The output starts with a bare {"name", "parameters"} object (Llama 3 JSON).',
  detectMagistral: 'Found {{marker}} at offset {{at}} after [THINK] reasoning (Magistral).',
  detectMagistralPlain: 'Found {{marker}} at offset {{at}} (Magistral without reasoning reads like Mistral).',
  detectOpenaiMessage: 'The output is a JSON assistant message with role/content/tool_calls (OpenAI).',
  detectOpenaiToolCalls: 'Found an OpenAI tool_calls array at offset {{at}}.',
  detectPythonTag: 'Found a Python call after {{marker}} at offset {{at}} (a Llama 3.1 built-in tool).',
  detectPythonLeading: 'The output starts with a Python call.',
  detectPythonList: 'Found a Python call list at offset {{at}}.',
  detectPythonFenced: 'Found a fenced Python call at offset {{at}}.',
  detectBracket: 'Found [TOOL: name] at offset {{at}}.',
  detectPipe: 'Found [TOOL:name| at offset {{at}}.',
  autoAfterMisses: '{{reason}} ({{misses}})',
  autoMiss: '{{id}} at offset {{at}} found no call',
  autoText: 'No tool-call syntax found; the output is text.',
  autoTextAfterMisses: 'No tool-call syntax found; the output is text ({{misses}}).',
  // Why a file's bytes are not read as text (text-file.ts).
  textUtf16NoMark: 'it looks like UTF-16 text without a byte-order mark. Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark: save it as UTF-8, or as UTF-16 with a BOM.',
  textNotEncoding: 'it is not {{encoding}} text (a binary file, or text in another encoding?). Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark.',
  textNul: 'it is not text: it holds a NUL character at offset {{offset}} (a binary file?). Toolstep reads UTF-8 text, and UTF-16 with a byte-order mark.',
  // What the JavaScript engine's JSON.parse said (json-engine-error.ts), re-worded from its
  // message so the UI can translate it; the CLI keeps the engine's own message.
  engineJsonEnd: 'Unexpected end of JSON input',
  engineJsonToken: 'Unexpected token {{token}} {{where}}',
  engineJsonTokenQuoted: 'Unexpected token {{token}}, {{text}} is not valid JSON',
  engineJsonPropertyName: "Expected property name or '}' {{where}}",
  engineJsonQuotedName: 'Expected double-quoted property name {{where}}',
  engineJsonString: 'Unterminated string {{where}}',
  engineJsonAfterProperty: "Expected ',' or '}' after property value {{where}}",
  engineJsonAfterElement: "Expected ',' or ']' after array element {{where}}",
  engineJsonColon: "Expected ':' after property name {{where}}",
  engineJsonTrailing: 'Unexpected non-whitespace character after the JSON value {{where}}',
  engineJsonEscape: 'Bad escaped character {{where}}',
  engineJsonUnicode: 'Bad Unicode escape {{where}}',
  engineJsonControl: 'Bad control character in string literal {{where}}',
  engineJsonNumber: 'Incomplete number {{where}}',
  engineJsonNotJson: '{{text}} is not valid JSON',
  engineJsonOther: 'Not valid JSON {{where}}',
  engineJsonAtLine: 'in JSON at position {{position}} (line {{line}} column {{column}})',
  engineJsonAtPosition: 'in JSON at position {{position}}',
  engineJsonAtLineOnly: 'in JSON at line {{line}} column {{column}}',
  engineJsonSomewhere: 'in JSON',
  // A file that is not JSON (text-file.ts).
  fileEmpty: 'The file is empty.',
  fileNotJson: 'Not valid JSON: {{error}}.',
  fileTooDeep: 'The JSON nests deeper than {{max}} levels (objects and arrays inside one another), more than Toolstep reads.',
  /** Two items of a list written with semicolons. */
  listSemicolon: '{{head}}; {{tail}}',
} as const satisfies Record<string, string>

/** A key of {@link PARSE_TEXT} without its plural suffix. */
export type ParseTextKey = CatalogueKey<typeof PARSE_TEXT>

/** A text as the CLI prints it (`message`) and as the UI translates it (`phrase`). */
export interface Said {
  message: string
  phrase: Phrase
}

/** A phrase of {@link PARSE_TEXT}. */
export function parsePhrase(key: ParseTextKey, params?: PhraseParams): Phrase {
  return phrase(key, params)
}

/** A phrase of {@link PARSE_TEXT} with its English. */
export function parseSaid(key: ParseTextKey, params?: PhraseParams): Said {
  const p = phrase(key, params)
  return { message: renderPhrase(p, PARSE_TEXT), phrase: p }
}

/** `phrase` in English. */
export function parseMessage(p: Phrase): string {
  return renderPhrase(p, PARSE_TEXT)
}

/** What to nest in another phrase for a diagnosis: its phrase, or its English when it has none. */
export function nested(said: { message: string; phrase?: Phrase }): Phrase | string {
  return said.phrase ?? said.message
}

/** `items` joined with `; ` as one phrase (empty list: no phrase). */
export function semicolonList(items: readonly Phrase[]): Phrase | undefined {
  let list: Phrase | undefined
  for (let i = items.length - 1; i >= 0; i--) list = list ? parsePhrase('listSemicolon', { head: items[i]!, tail: list }) : items[i]
  return list
}
