/**
 * gas.CalculatePrice (vms/components/gas/gas.go): minPrice * e^(excess / K), by the node's integer Taylor series
 * (fakeExponential), at most uint64's largest.
 */
export function gasPrice(minPrice: bigint, excess: bigint, k: bigint): bigint {
  const max = k * 0xffff_ffff_ffff_ffffn;
  let output = 0n;
  let accumulator = minPrice * k;
  for (let i = 1n; accumulator > 0n; i++) {
    output += accumulator;
    if (output >= max) return 0xffff_ffff_ffff_ffffn;
    accumulator = (accumulator * excess) / k / i;
  }
  return output / k;
}
