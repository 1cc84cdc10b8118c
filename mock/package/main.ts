/** The package's entry point: startMockNode from the bundle ./load.ts loads (./index.ts documents it). */
import { loadCore } from './load.ts';

export const { startMockNode } = loadCore();
