/**
 * `llama3-json`: Llama 3.1/3.2/3.3 JSON tool calling, a bare `{"name", "parameters"}` object,
 * optionally after `<|python_tag|>` and before `<|eom_id|>`; Llama 3.2 separates parallel calls with `; `.
 */
import { collectJsonCalls } from './json'
import { defineTextProtocol } from './shared/define'

/** `llama3-json` protocol: `{"name": NAME, "parameters": {…}}`, optionally after `<|python_tag|>`. */
export const llama3Json = defineTextProtocol({
  id: 'llama3-json',
  label: 'Llama 3 JSON',
  description: 'Llama 3.x: a bare {"name", "parameters"} object, optionally after <|python_tag|>; "; " between calls.',
  collect: (builder) => collectJsonCalls(builder),
  rules: [
    'To call a tool, answer with only a JSON object {"name": "<tool name>", "parameters": {<arguments>}}.',
    'To call several tools, separate the objects with "; ".',
    'Do not use variables; write the values themselves.',
  ],
  renderCall: (name, args) => JSON.stringify({ name, parameters: args }),
  example: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
})
