/**
 * Times and durations as Go writes them in the node's answers: a time.Time marshals as RFC3339Nano (the fraction of
 * a second with its trailing zeros cut, none when whole), a time.Duration's String() as `118.2ms`, `1m30s`, `0s`.
 * Both take nanoseconds as bigint, since a Unix time in nanoseconds is past what a double holds exactly.
 */

export const SECOND = 1_000_000_000n;
const NANOS = SECOND;

/** The fraction `value / scale` in decimal, trailing zeros (and a bare point) cut, as Go's fmtFrac does. */
function decimal(value: bigint, scale: bigint): string {
  const whole = value / scale;
  const rest = value % scale;
  if (rest === 0n) return String(whole);
  const digits = String(scale).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** time.Time in UTC (a node run in UTC) from Unix nanoseconds, as encoding/json writes it. */
export function goTime(unixNanos: bigint): string {
  const seconds = unixNanos / NANOS;
  const fraction = unixNanos % NANOS;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (fraction === 0n) return `${base}Z`;
  return `${base}.${String(fraction).padStart(9, '0').replace(/0+$/, '')}Z`;
}

/** time.Duration.String(). */
export function goDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  const d = nanos < 0n ? -nanos : nanos;
  if (d < 1000n) return `${sign}${d}ns`;
  if (d < 1_000_000n) return `${sign}${decimal(d, 1000n)}µs`;
  if (d < NANOS) return `${sign}${decimal(d, 1_000_000n)}ms`;
  const hours = d / (3600n * NANOS);
  const minutes = (d / (60n * NANOS)) % 60n;
  const seconds = decimal(d % (60n * NANOS), NANOS);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}
