/**
 * The C-Chain's EVM at `/ext/bc/C/rpc` through viem, unchanged: the local network's chain ID and the ewoq key's
 * genesis balance, a contract deployed, called and its logs read, a transfer, and what coreth adds (eth_baseFee).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hex, parseEther } from 'viem';
import { ABI, BYTECODE, cClients } from './c-clients.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const clients = () => cClients(node.url);

describe('the C-Chain through viem', () => {
  it('is chain 43112 and the ewoq key holds its genesis 50,000,000 AVAX', async () => {
    const { pub, account } = clients();
    expect(account.address).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(await pub.getChainId()).toBe(43112);
    expect(await pub.getBalance({ address: account.address, blockNumber: 0n })).toBe(50_000_000n * 10n ** 18n);
  });

  it('funds the mock accounts on C as on X and P', async () => {
    const { pub } = clients();
    const { accounts } = (await node.dev.listAccounts()) as { accounts: { cAddress: string }[] };
    const funded = accounts.at(-1)!.cAddress as Hex;
    expect(await pub.getBalance({ address: funded })).toBe(2_500n * 10n ** 18n);
  });

  it('deploys a contract, calls it and reads its logs', async () => {
    const { pub, wallet } = clients();
    const deploy = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
    const { contractAddress } = await pub.waitForTransactionReceipt({ hash: deploy });
    expect(contractAddress).toBeTruthy();
    const set = await wallet.writeContract({ address: contractAddress!, abi: ABI, functionName: 'set', args: [42n] });
    const receipt = await pub.waitForTransactionReceipt({ hash: set });
    expect(receipt.status).toBe('success');
    expect(await pub.readContract({ address: contractAddress!, abi: ABI, functionName: 'get' })).toBe(42n);
    const logs = await pub.getContractEvents({
      address: contractAddress!,
      abi: ABI,
      eventName: 'ValueSet',
      fromBlock: 0n,
    });
    expect(logs.map((l) => l.args.value)).toEqual([42n]);
  });

  it('sends AVAX and answers coreth eth_baseFee', async () => {
    const { pub, wallet } = clients();
    const to = '0x000000000000000000000000000000000000dEaD';
    const hash = await wallet.sendTransaction({ to, value: parseEther('1.5') });
    await pub.waitForTransactionReceipt({ hash });
    expect(await pub.getBalance({ address: to })).toBe(parseEther('1.5'));
    const baseFee = BigInt((await pub.request({ method: 'eth_baseFee' as never })) as string);
    expect(baseFee).toBeGreaterThan(0n);
  });

  // The dev controls' anvil and Hardhat names are served (cchain-dev-rpc.test.ts); the engine's other controls are not.
  it('refuses the engine controls a C-Chain node lacks, and a batch answers each call', async () => {
    const res = await send(`${node.url}/ext/bc/C/rpc`, {
      body: `[${rpc('hardhat_getStackTraceFailuresCount', [], 1)},${rpc('eth_chainId', [], 'b')}]`,
    });
    expect(JSON.parse(res.text)).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32601,
          message: 'the method hardhat_getStackTraceFailuresCount does not exist/is not available',
        },
      },
      { jsonrpc: '2.0', id: 'b', result: '0xa868' },
    ]);
  });
});
