/** Every event of a log, oldest first, read page by page (an event store port, or anything that reads `$all` the same way). */
export async function readWholeLog<E extends { position: bigint }>(store: { readAll(options: { after?: bigint; maxCount: number }): Promise<E[]> }): Promise<E[]> {
  const events: E[] = [];
  for (let after: bigint | undefined; ; ) {
    const page = await store.readAll({ after, maxCount: 5000 });
    if (page.length === 0) return events;
    events.push(...page);
    after = page[page.length - 1].position;
  }
}
