/**
 * Everything the packaged mock runs, as one CommonJS bundle (dist/core.cjs) that ./load.ts compiles with V8's code
 * cache: the library's startMockNode and the bin's command line.
 */
export { runCli } from '../cli-run.ts';
export { loadFixture, startMockNode, Wallet } from './index.ts';
