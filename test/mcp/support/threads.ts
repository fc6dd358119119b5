// Counting a server process's threads (Linux: /proc/<pid>/task) to see a worker thread start and end.

/** The fewest threads `count` reads over about half a second: the process's steady number. */
export async function fewestThreads(count: () => number, samples = 8): Promise<number> {
  let fewest = count();
  for (let i = 1; i < samples; i++) {
    await new Promise((r) => setTimeout(r, 60));
    fewest = Math.min(fewest, count());
  }
  return fewest;
}
