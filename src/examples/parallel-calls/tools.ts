import { tool, z } from 'toolstep'

// Several calls in one output run at the same time; one failing does not affect the others;
// every call gets its own result, written back in call order and paired by tool_call_id — also
// the two calls to the same tool. A call may wait for others with "dependsOn".

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const CLIMATE: Record<string, { temperatureC: number; conditions: string }> = {
  paris: { temperatureC: 19, conditions: 'cloudy' },
  oslo: { temperatureC: 6, conditions: 'rain' },
}

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: async ({ city }) => {
    // Different latencies, so the lanes on the timeline show the calls overlapping.
    await sleep(city.length * 40)
    const weather = CLIMATE[city.toLowerCase()]
    if (!weather) throw new Error(`No weather station in "${city}".`)
    return { city, ...weather }
  },
})

export const packing_list = tool({
  description: 'Suggest what to pack for a trip to a city.',
  inputSchema: z.object({ city: z.string().min(1) }),
  execute: async ({ city }) => {
    await sleep(60)
    return { city, items: ['umbrella', 'light jacket', 'walking shoes'] }
  },
})
