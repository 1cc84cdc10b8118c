/**
 * Hardhat's `loadFixture` for the mock (hardhat-network-helpers loadFixture.ts): the first call runs the set-up and
 * snapshots the network after it; every later call reverts to that snapshot (the mock's snapshots survive a revert, so
 * one baseline serves every test) and hands back the set-up's result. Keyed by the set-up function, as Hardhat's is:
 * an anonymous one is refused, as there (a new closure each call would be a new fixture each time).
 */
interface Snapshots {
  snapshot(): { snapshotID: string } | Promise<{ snapshotID: string }>;
  revert(params: { snapshotID: string }): unknown;
}

type Fixture = { setUp: () => Promise<unknown>; snapshotID: string; result: unknown };

/** By controls, the fixtures set up, oldest first. */
const taken = new WeakMap<Snapshots, Fixture[]>();

export async function loadFixture<T>(dev: Snapshots, setUp: () => Promise<T>): Promise<T> {
  if (setUp.name === '')
    throw new Error(
      'Anonymous functions cannot be used as fixtures: pass a named function, the same one on every call to loadFixture',
    );
  let fixtures = taken.get(dev);
  if (!fixtures) taken.set(dev, (fixtures = []));
  const index = fixtures.findIndex((fixture) => fixture.setUp === setUp);
  if (index >= 0) {
    const known = fixtures[index]!;
    await dev.revert({ snapshotID: known.snapshotID });
    // The revert discarded the snapshots taken after this one: their fixtures are set up again when next loaded.
    fixtures.splice(index + 1);
    return known.result as T;
  }
  const result = await setUp();
  const { snapshotID } = await dev.snapshot();
  fixtures.push({ setUp, snapshotID, result });
  return result;
}
