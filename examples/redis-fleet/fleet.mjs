// Starts a fleet of crawler processes (member.mjs) over one frontier and one Redis, and waits for
// them: each member takes its share of the URLs, and the fleet fetches each site's robots.txt once.
//
//   REDIS_URL=redis://127.0.0.1:6379 node fleet.mjs FRONTIER [MEMBERS] [AGENT]
//
// The members' lines come out as they are printed; the exit status is the first non-zero one.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const [file, members = '2', agent = 'ExampleBot'] = process.argv.slice(2)
if (file === undefined || process.env.REDIS_URL === undefined) {
  console.error('usage: REDIS_URL=redis://HOST:PORT node fleet.mjs FRONTIER [MEMBERS] [AGENT]')
  process.exit(2)
}
const member = fileURLToPath(new URL('member.mjs', import.meta.url))
const statuses = await Promise.all(Array.from({ length: Number(members) }, (_, i) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [member, file, String(i), members, agent], { stdio: 'inherit' })
    child.on('exit', (code) => resolve(code ?? 1))
  })))
process.exit(statuses.find((s) => s !== 0) ?? 0)
