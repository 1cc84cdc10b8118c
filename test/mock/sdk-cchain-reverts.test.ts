/**
 * Revert data as apps decode it, through viem and ethers: a contract (assembled by hand; no compiler here) that reverts
 * every call with fixed revert data, once a custom error `Unauthorized(address,uint256)` and once `Error(string)`.
 * coreth answers eth_call and eth_estimateGas with code 3, "execution reverted" (plus ": reason" for Error(string)) and
 * the revert data in `data` (internal/ethapi's revertError), which viem and ethers decode with the ABI; viem's
 * deployless multicall runs a batch of calls through one eth_call and reports each failure with its own data.
 */
import { Contract, JsonRpcProvider, Wallet, isError } from 'ethers';
import {
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  concatHex,
  encodeErrorResult,
  parseAbi,
  toHex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';
import { EWOQ } from './sdk-world.ts';

const ABI = parseAbi(['function act(uint256 x) returns (uint256)', 'error Unauthorized(address who, uint256 code)']);
const WHO = '0x00000000000000000000000000000000000000AA';

/** Creation code of a contract whose every call reverts with `data` (at most 255 bytes). */
function alwaysReverts(data: Hex): Hex {
  const len = toHex((data.length - 2) / 2, { size: 1 }).slice(2);
  // PUSH1 len PUSH1 12 PUSH1 0 CODECOPY PUSH1 len PUSH1 0 REVERT, then the data.
  const runtime = concatHex([`0x60${len}600c60003960${len}6000fd`, data]);
  const rlen = toHex((runtime.length - 2) / 2, { size: 1 }).slice(2);
  // PUSH1 rlen PUSH1 12 PUSH1 0 CODECOPY PUSH1 rlen PUSH1 0 RETURN, then the runtime.
  return concatHex([`0x60${rlen}600c60003960${rlen}6000f3`, runtime]);
}

const CUSTOM = encodeErrorResult({ abi: ABI, errorName: 'Unauthorized', args: [WHO, 7n] });
const REASON = encodeErrorResult({
  abi: parseAbi(['error Error(string)']),
  errorName: 'Error',
  args: ['not allowed'],
});

let node: RunningMockNode;
let custom: Hex;
let reason: Hex;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  for (const [data, set] of [
    [CUSTOM, (a: Hex) => (custom = a)],
    [REASON, (a: Hex) => (reason = a)],
  ] as const) {
    const hash = await wallet.sendTransaction({ data: alwaysReverts(data) });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    set(receipt.contractAddress!);
  }
});
afterAll(() => node?.close());

describe('revert data through the SDKs', () => {
  it('eth_call answers code 3, "execution reverted" and the data, as coreth', async () => {
    const call = (to: Hex) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_call', [{ to, data: '0x12345678' }, 'latest']);
    expect((await call(custom)).error).toEqual({ code: 3, message: 'execution reverted', data: CUSTOM });
    expect((await call(reason)).error).toEqual({
      code: 3,
      message: 'execution reverted: not allowed',
      data: REASON,
    });
    const estimate = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_estimateGas', [{ to: custom, data: '0x' }]);
    expect(estimate.error).toEqual({ code: 3, message: 'execution reverted', data: CUSTOM });
  });

  it('viem: simulateContract and estimateContractGas decode the custom error and the reason', async () => {
    const { pub, account } = cClients(node.url);
    const reverted = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BaseError);
      const cause = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
      expect(cause).toBeInstanceOf(ContractFunctionRevertedError);
      return cause as ContractFunctionRevertedError;
    };
    const args = { abi: ABI, functionName: 'act', args: [1n], account } as const;
    const c = await reverted(() => pub.simulateContract({ ...args, address: custom }));
    expect(c.data?.errorName).toBe('Unauthorized');
    expect(c.data?.args).toEqual([WHO, 7n]);
    const g = await reverted(() => pub.estimateContractGas({ ...args, address: custom }));
    expect(g.data?.errorName).toBe('Unauthorized');
    const r = await reverted(() => pub.simulateContract({ ...args, address: reason }));
    expect(r.reason).toBe('not allowed');
  });

  it('viem: a deployless multicall reports each call’s failure with its own revert data', async () => {
    const { pub } = cClients(node.url);
    const results = await pub.multicall({
      contracts: [
        { address: custom, abi: ABI, functionName: 'act', args: [1n] },
        { address: reason, abi: ABI, functionName: 'act', args: [2n] },
      ],
      deployless: true,
    });
    expect(results.map((r) => r.status)).toEqual(['failure', 'failure']);
    const [first, second] = results.map((r) =>
      (r.error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError),
    );
    expect((first as ContractFunctionRevertedError).data?.errorName).toBe('Unauthorized');
    expect((second as ContractFunctionRevertedError).reason).toBe('not allowed');
  });

  it('ethers: staticCall and estimateGas throw CALL_EXCEPTION with the decoded revert', async () => {
    const provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { cacheTimeout: -1 });
    try {
      const wallet = new Wallet(`0x${Buffer.from(EWOQ).toString('hex')}`, provider);
      const abi = ['function act(uint256 x) returns (uint256)', 'error Unauthorized(address who, uint256 code)'];
      const withCustom = new Contract(custom, abi, wallet);
      const e1 = await withCustom.act!.staticCall(1n).catch((e: unknown) => e);
      expect(isError(e1, 'CALL_EXCEPTION')).toBe(true);
      expect((e1 as { revert: { name: string; args: unknown[] } }).revert.name).toBe('Unauthorized');
      expect([...(e1 as { revert: { args: unknown[] } }).revert.args]).toEqual([WHO, 7n]);
      const withReason = new Contract(reason, abi, wallet);
      const e2 = await withReason.act!.estimateGas(1n).catch((e: unknown) => e);
      expect(isError(e2, 'CALL_EXCEPTION')).toBe(true);
      expect((e2 as { reason: string }).reason).toBe('not allowed');
    } finally {
      provider.destroy();
    }
  });

  it('a reverting tx sent with a fixed gas is mined with status 0 and its gas used', async () => {
    const { pub, wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({ to: custom, data: '0x12345678', gas: 100_000n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(receipt.gasUsed).toBeGreaterThan(21_000n);
    expect(receipt.gasUsed).toBeLessThan(100_000n);
    expect(receipt.logs).toEqual([]);
  });
});
