/**
 * The user message of each lesson in Chinese, and of the evaluation lesson's cases: opening a
 * lesson in 简体中文 or 繁體中文 puts the question in that language into the workspace, and the
 * lesson's mock model reads it as it reads the English one (same tool calls, same stop). The
 * English is the lesson's `workspace.input`. zh-TW is what scripts/zh-tw.mjs's conversion makes
 * of zh-CN (a unit test checks), as for the UI's strings.
 */

/** A language a lesson's text and input come in (the UI's languages). */
export type LessonLanguage = 'en' | 'zh-CN' | 'zh-TW'

/** A text in the Chinese languages; English is the lesson's own. */
export interface Translated {
  'zh-CN': string
  'zh-TW': string
}

/** Each lesson's user message, by lesson id. */
export const LESSON_INPUTS: Readonly<Record<string, Translated>> = {
  'registry-tags': { 'zh-CN': '巴黎的天气怎么样？18 + 4 等于多少？', 'zh-TW': '巴黎的天氣怎麼樣？18 + 4 等於多少？' },
  'typed-schema': { 'zh-CN': '21 °C 是多少华氏度？', 'zh-TW': '21 °C 是多少華氏度？' },
  'agent-loop': { 'zh-CN': '查一下奥斯陆的天气，还有订单 A999 的状态。', 'zh-TW': '查一下奧斯陸的天氣，還有訂單 A999 的狀態。' },
  'step-cap': { 'zh-CN': '把工具调用的一切都告诉我。', 'zh-TW': '把工具呼叫的一切都告訴我。' },
  'parallel-calls': { 'zh-CN': '巴黎、奥斯陆和亚特兰蒂斯的天气怎么样？去巴黎该带些什么？', 'zh-TW': '巴黎、奧斯陸和亞特蘭蒂斯的天氣怎麼樣？去巴黎該帶些什麼？' },
  'bracket-regex': { 'zh-CN': '巴黎的天气怎么样？(12 + 30) * 2 等于多少？', 'zh-TW': '巴黎的天氣怎麼樣？(12 + 30) * 2 等於多少？' },
  'pipe-syntax': { 'zh-CN': '巴黎的天气怎么样？(12 + 30) * 2 等于多少？', 'zh-TW': '巴黎的天氣怎麼樣？(12 + 30) * 2 等於多少？' },
  'native-tool-calls': { 'zh-CN': '巴黎的天气怎么样？(12 + 30) * 2 等于多少？', 'zh-TW': '巴黎的天氣怎麼樣？(12 + 30) * 2 等於多少？' },
  'prompt-json': { 'zh-CN': '日本的首都是哪里？', 'zh-TW': '日本的首都是哪裡？' },
  'fusion-fallback': { 'zh-CN': '巴黎的天气、18 + 4，还有那里现在几点？', 'zh-TW': '巴黎的天氣、18 + 4，還有那裡現在幾點？' },
  'schema-validation': { 'zh-CN': '巴黎未来 3 天的天气怎么样？未来 20 天呢？', 'zh-TW': '巴黎未來 3 天的天氣怎麼樣？未來 20 天呢？' },
  'name-aliases': { 'zh-CN': '请告诉我五个城市的天气。', 'zh-TW': '請告訴我五個城市的天氣。' },
  'dispatcher-ids': { 'zh-CN': '巴黎、奥斯陆和亚特兰蒂斯的天气怎么样？去巴黎该带些什么？', 'zh-TW': '巴黎、奧斯陸和亞特蘭蒂斯的天氣怎麼樣？去巴黎該帶些什麼？' },
  'reflection-dispatch': { 'zh-CN': '我的购物清单上有什么？另外记一下：假期五月去里斯本。', 'zh-TW': '我的購物清單上有什麼？另外記一下：假期五月去里斯本。' },
  'structured-routing': { 'zh-CN': '奥斯陆今天会下雨吗？', 'zh-TW': '奧斯陸今天會下雨嗎？' },
  routing: { 'zh-CN': '巴黎现在天气怎么样？我今天的日程上有什么？', 'zh-TW': '巴黎現在天氣怎麼樣？我今天的日程上有什麼？' },
  'code-as-action': { 'zh-CN': '巴黎和马德里现在多少度？分别用 °C 和 °F 表示。', 'zh-TW': '巴黎和馬德里現在多少度？分別用 °C 和 °F 表示。' },
  confirmation: { 'zh-CN': '清理一下我的笔记文件夹。', 'zh-TW': '清理一下我的筆記資料夾。' },
  'history-cleanup': { 'zh-CN': '读一下手册，告诉我第 1 章讲了什么。', 'zh-TW': '讀一下手冊，告訴我第 1 章講了什麼。' },
  'result-externalisation': { 'zh-CN': '查看结账日志，然后找找奥斯陆附近的徒步路线。', 'zh-TW': '檢視結賬日誌，然後找找奧斯陸附近的徒步路線。' },
  'eval-metrics': { 'zh-CN': '今天里昂在下雨吗？', 'zh-TW': '今天里昂在下雨嗎？' },
  'fail-malformed-json': { 'zh-CN': '巴黎未来两天的天气怎么样？', 'zh-TW': '巴黎未來兩天的天氣怎麼樣？' },
  'fail-hallucinated-tool': { 'zh-CN': '请告诉我五个城市的天气。', 'zh-TW': '請告訴我五個城市的天氣。' },
  'fail-wrong-types': { 'zh-CN': '巴黎未来 3 天的天气怎么样？未来 20 天呢？', 'zh-TW': '巴黎未來 3 天的天氣怎麼樣？未來 20 天呢？' },
  'fail-endless-loop': { 'zh-CN': '失败的工具调用该怎么重试？', 'zh-TW': '失敗的工具呼叫該怎麼重試？' },
  'fail-prompt-injection': { 'zh-CN': '查看结账日志，然后找找奥斯陆附近的徒步路线。', 'zh-TW': '檢視結賬日誌，然後找找奧斯陸附近的徒步路線。' },
  'fail-huge-result': { 'zh-CN': '巴黎的天气怎么样？(12 + 30) * 2 等于多少？', 'zh-TW': '巴黎的天氣怎麼樣？(12 + 30) * 2 等於多少？' },
  'fail-duplicate-id': { 'zh-CN': '水壶和烤面包机各有多少库存？', 'zh-TW': '水壺和烤麵包機各有多少庫存？' },
  'fail-timeout': { 'zh-CN': '巴黎的天气怎么样？', 'zh-TW': '巴黎的天氣怎麼樣？' },
}

/** The evaluation lesson's case inputs, by case id. */
export const EVAL_CASE_INPUTS: Readonly<Record<string, Translated>> = {
  'weather-paris': { 'zh-CN': '巴黎的天气怎么样？', 'zh-TW': '巴黎的天氣怎麼樣？' },
  'weather-lyon': { 'zh-CN': '今天里昂在下雨吗？', 'zh-TW': '今天里昂在下雨嗎？' },
  sum: { 'zh-CN': '18 + 4 等于多少？', 'zh-TW': '18 + 4 等於多少？' },
  greeting: { 'zh-CN': '你好！', 'zh-TW': '你好！' },
}
