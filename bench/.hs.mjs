import { parseRobots } from '../dist/index.js'
import { accessors, hostileShapes } from './shapes.mjs'
const best = (fn, n = 7) => { let ms = Infinity; for (let k = 0; k < n; k++) { const t = performance.now(); fn(); ms = Math.min(ms, performance.now() - t) } return ms }
for (const [shape, body] of Object.entries(hostileShapes())) {
  const base = best(() => parseRobots(body).matcher('x'))
  const r = Object.entries(accessors(parseRobots)).map(([n, fn]) => `${n} ${(best(() => fn(body)) / base).toFixed(1)}x`)
  console.log(`${shape}: base ${base.toFixed(2)} ms; ${r.join(', ')}`)
}
