// For the children test/memory.test.ts runs under `node --expose-gc`: a FinalizationRegistry only
// calls back between tasks, so a collection is a gc() and a turn of the event loop, three times
// (a Matcher sharing a table, then the owner it held, then the table's release).
const gc = (globalThis as { gc?: () => void }).gc!
const turn = () => new Promise((resolve) => setTimeout(resolve, 0))

export async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc()
    await turn()
  }
}
