/**
 * Hardhat's `loadFixture` for the mock: the first call runs the set-up and snapshots the network after it; every later
 * call reverts to that snapshot (the mock's snapshots survive a revert, so one baseline serves every test) and hands
 * back the set-up's result. Keyed by the set-up function, as Hardhat's is: pass a named function, not a new closure.
 */
interface Snapshots {
  snapshot(): { snapshotID: string } | Promise<{ snapshotID: string }>;
  revert(params: { snapshotID: string }): unknown;
}

const taken = new WeakMap<Snapshots, Map<() => Promise<unknown>, { snapshotID: string; result: unknown }>>();

export async function loadFixture<T>(dev: Snapshots, setUp: () => Promise<T>): Promise<T> {
  let fixtures = taken.get(dev);
  if (!fixtures) taken.set(dev, (fixtures = new Map()));
  const known = fixtures.get(setUp);
  if (known) {
    await dev.revert({ snapshotID: known.snapshotID });
    return known.result as T;
  }
  const result = await setUp();
  const { snapshotID } = await dev.snapshot();
  fixtures.set(setUp, { snapshotID, result });
  return result;
}
