/**
 * The message loop shared by both worker entries (Web Worker and worker_threads): validates each
 * request, runs it on one {@link SandboxRuntime}, and posts the reply with the same `requestId`.
 */
import { hostToSandboxSchema, type SandboxToHost } from './protocol'
import { createRuntime } from './runtime'

/**
 * Creates the handler for messages arriving from the host. Posts `{type:'ready'}` immediately:
 * the host starts call timers only after it, so worker boot time never counts against a call.
 * @param post - sends one message to the host.
 * @returns a function to call with each received message's data. It never throws.
 */
export function createWorkerDispatch(post: (message: SandboxToHost) => void): (data: unknown) => void {
  const runtime = createRuntime()
  post({ type: 'ready' })
  return (data) => {
    const parsed = hostToSandboxSchema.safeParse(data)
    if (!parsed.success) {
      const requestId =
        typeof data === 'object' && data !== null && 'requestId' in data && typeof data.requestId === 'string' ? data.requestId : undefined
      post({ type: 'protocol-error', requestId, message: `Malformed request: ${parsed.error.message}` })
      return
    }
    const message = parsed.data
    switch (message.type) {
      case 'load':
        post({ type: 'loaded', requestId: message.requestId, result: runtime.load(message.file, message.source) })
        return
      case 'call-model':
        void runtime.callModel(message.request).then((result) => post({ type: 'model-result', requestId: message.requestId, result }))
        return
      case 'execute-tool':
        void runtime
          .executeTool(message.name, message.arguments, message.callId)
          .then((result) => post({ type: 'tool-result', requestId: message.requestId, result }))
        return
      case 'route':
        void runtime.callRoute(message.request).then((result) => post({ type: 'route-result', requestId: message.requestId, result }))
        return
      case 'summarize':
        void runtime
          .callSummarize(message.result, { tool: message.tool, maxChars: message.maxChars })
          .then((result) => post({ type: 'summarize-result', requestId: message.requestId, result }))
        return
      case 'run-code': {
        const { requestId } = message
        void runtime
          .runCode(message.code, { maxOutputChars: message.maxOutputChars }, (progress) =>
            post(
              progress.kind === 'output'
                ? { type: 'code-progress', requestId, output: progress.text, truncated: progress.truncated }
                : { type: 'code-progress', requestId, call: progress.call },
            ),
          )
          .then((result) => post({ type: 'code-result', requestId, result }))
        return
      }
    }
  }
}
