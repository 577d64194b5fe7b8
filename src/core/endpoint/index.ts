/** An OpenAI-compatible Chat Completions endpoint as the model. */
export { createEndpointModel, withReceived, type EndpointModel, type EndpointModelOptions, type EndpointOutput, type ResponseTiming, type StreamChunk } from './chat-model'
export { CompletionAccumulator, readCompletionBody, toNativeMessage, type Completion } from './completion'
export { CORS_HELP, EndpointError, httpError, networkError, providerMessage, retryAfterMs, type EndpointErrorKind } from './errors'
export { chatCompletionsBody, textFormatMessages, toOpenAITools, type ChatCompletionsBody, type OpenAIFunctionTool } from './request'
export { chatCompletionsUrl, checkBaseUrl, DEFAULT_ENDPOINT_TIMEOUT_MS, redactBaseUrl, endpointConfigSchema, type EndpointConfig, type EndpointCredentials } from './settings'
