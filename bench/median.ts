/** The middle value of a benchmark's rounds (the upper middle for an even count), robust to one outlier round. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
