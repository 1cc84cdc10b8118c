/**
 * gas.CalculatePrice: minPrice * e^(excess / K), by the Taylor series the node uses (fakeExponential in
 * vms/components/gas), in integers.
 */
export function gasPrice(minPrice: bigint, excess: bigint, k: bigint): bigint {
  let output = 0n;
  let accumulator = minPrice * k;
  for (let i = 1n; accumulator > 0n; i++) {
    output += accumulator;
    accumulator = (accumulator * excess) / (k * i);
  }
  return output / k;
}
