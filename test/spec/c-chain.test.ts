/**
 * The C-Chain's EVM API (openrpc/c-chain): ethereum/execution-apis' vendored document read like any foreign one, with
 * coreth's own methods, served at `/ext/bc/C/rpc`, and generated/c-chain in step with it.
 */
import { describe, expect, it } from 'vitest';
import { PROJECT_SPECS, generate, loadModel } from '../../generators/pipeline.ts';

const SET = PROJECT_SPECS.find((set) => set.spec === 'openrpc/c-chain')!;

describe('the C-Chain EVM endpoint', () => {
  const model = loadModel(SET.spec);
  const endpoint = model.endpoints.find((e) => e.name === 'c-chain-rpc')!;
  const names = endpoint.methods.map((method) => method.name);

  it("is one plain OpenRPC endpoint at /ext/bc/C/rpc, with the mock's dev methods beside it", () => {
    expect(model.endpoints.map((e) => [e.name, e.defaultPath, e.profile, e.mockOnly])).toEqual([
      ['c-chain-dev', '/ext/bc/C/rpc', undefined, true],
      ['c-chain-rpc', '/ext/bc/C/rpc', undefined, false],
    ]);
  });

  it("names the dev methods as anvil and Hardhat do, none of them a node's", () => {
    const dev = model.endpoints.find((e) => e.name === 'c-chain-dev')!.methods.map((method) => method.name);
    for (const name of dev) expect(name).toMatch(/^(anvil|hardhat|evm)_[a-zA-Z]+$/);
    expect(dev).toEqual(expect.arrayContaining(['evm_snapshot', 'evm_revert', 'anvil_setBalance', 'hardhat_mine']));
    expect(dev.filter((name) => names.includes(name))).toEqual([]);
  });

  it("has coreth's own methods and the standard ones coreth serves, and none it does not", () => {
    for (const name of [
      'eth_baseFee',
      'eth_suggestPriceOptions',
      'eth_getChainConfig',
      'eth_getBalance',
      'net_version',
    ])
      expect(names).toContain(name);
    for (const name of ['eth_simulateV1', 'eth_config', 'eth_blobBaseFee', 'engine_newPayloadV1', 'eth_accounts'])
      expect(names).not.toContain(name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("types coreth's block fields on top of Ethereum's block", () => {
    const block = model.schemas.CorethBlock as { allOf: Array<Record<string, unknown>> };
    expect(block.allOf[0]).toEqual({ $ref: '#/components/schemas/Block' });
    expect(Object.keys(block.allOf[1]!.properties as object)).toEqual(
      expect.arrayContaining(['extDataHash', 'blockExtraData', 'extDataGasUsed', 'blockGasCost']),
    );
  });

  it('generated/c-chain is what the spec generates', { timeout: 300_000 }, async () => {
    const result = await generate({ ...SET, check: true });
    expect(result.mode).toBe('check');
    if (result.mode === 'check') expect(result.report).toEqual({ stale: [], missing: [], extra: [] });
  });
});
