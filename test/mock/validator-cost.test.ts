/**
 * fee.State.CostOf (validators/fee/fee.go) without its per-second loop: the same answers on random inputs, and a
 * year's jump at a large excess answered at once.
 */
import { describe, expect, it } from 'vitest';
import { validatorCost } from '../../mock/engine/l1-state.ts';
import { gasPrice } from '../../mock/world/fees.ts';

const MAX = 0xffff_ffff_ffff_ffffn;

/** The node's loop, second by second (fee.go CostOf), as the reference. */
function costOf(minPrice: bigint, k: bigint, target: bigint, current: bigint, excess: bigint, seconds: bigint) {
  let cost = 0n;
  for (let i = 0n; i < seconds; i++) {
    const next = excess + current - target;
    excess = next < 0n ? 0n : next > MAX ? MAX : next;
    if (excess === 0n) {
      cost += minPrice * (seconds - i);
      return cost > MAX ? MAX : cost;
    }
    cost += gasPrice(minPrice, excess, k);
    if (cost > MAX) return MAX;
  }
  return cost;
}

/** A small deterministic generator (mulberry32): the same inputs every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('validatorCost', () => {
  it('answers as the per-second loop on random states and jumps', () => {
    const next = random(16);
    const int = (n: number) => BigInt(Math.floor(next() * n));
    for (let run = 0; run < 300; run++) {
      const k = 1n + int(run % 2 ? 2_000 : 2_000_000);
      const minPrice = int(4) === 0n ? 1n : 1n + int(600);
      const target = 1n + int(50);
      const current = int(100);
      const excess = int(4) === 0n ? 0n : int(Number(k) * (1 + Math.floor(next() * 30)));
      const seconds = int(run % 3 ? 200 : 2_000);
      const config = { capacity: 2n * target, target, minPrice, excessConversionConstant: k };
      expect(
        validatorCost(config, current, excess, seconds),
        JSON.stringify({ k, minPrice, target, current, excess, seconds }, (_, v) =>
          typeof v === 'bigint' ? String(v) : v,
        ),
      ).toBe(costOf(minPrice, k, target, current, excess, seconds));
    }
  });

  it('saturates at MaxUint64 like safemath', () => {
    const config = { capacity: 20n, target: 10n, minPrice: 512n, excessConversionConstant: 1_000n };
    expect(validatorCost(config, 20n, 40_000n, 1_000n)).toBe(MAX);
    expect(validatorCost(config, 0n, 10n ** 18n, 31_536_000n)).toBe(MAX);
  });

  it('a year at an excess that drains for weeks: exact below the limit, at least the limit above it', () => {
    const k = 1_246_488_515n;
    const config = { capacity: 20_000n, target: 10_000n, minPrice: 512n, excessConversionConstant: k };
    const year = 31_536_000n;
    // The price starts near 2.5e11 nAVAX a second: the first seconds exceed any balance below 1000 AVAX.
    const limit = 1_000n * 1_000_000_000n;
    const cost = validatorCost(config, 1n, 20n * k, year, limit);
    expect(cost).toBeGreaterThanOrEqual(limit);
    expect(validatorCost(config, 1n, 20n * k, 3n)).toBe(costOf(512n, k, 10_000n, 1n, 20n * k, 3n));
    // Long runs at one price: a modest excess over a year, exact, without the limit.
    expect(validatorCost(config, 1n, 2n * k, year)).toBe(validatorCost(config, 1n, 2n * k, year, MAX));
  });
});
