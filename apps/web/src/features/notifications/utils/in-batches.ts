/** The contract takes at most 200 ids per call (`ZNotificationIdsRequest`). */
export const maxIdsPerCall = 200;

/** Sends the ids in calls of at most 200, one after another; answers the sum of their counts. */
export async function inBatches(
  ids: readonly string[],
  call: (batch: string[]) => Promise<{ count: number }>,
): Promise<number> {
  let count = 0;
  for (let start = 0; start < ids.length; start += maxIdsPerCall) {
    count += (await call(ids.slice(start, start + maxIdsPerCall))).count;
  }
  return count;
}
