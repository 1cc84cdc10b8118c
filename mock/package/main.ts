/** The package's entry point: what ./index.ts exports, from the bundle ./load.ts loads (public.d.ts types it). */
import { loadCore } from './load.ts';

export const { loadFixture, startMockNode, Wallet } = loadCore();
