/**
 * The C-Chain through ethers v6, unchanged (issue 26): its JsonRpcProvider batches calls and polls for blocks, its
 * WebSocketProvider subscribes. A Wallet of the ewoq key sends transfers (EIP-1559, EIP-2930 and legacy), deploys a
 * contract, calls it, estimates its gas and reads its logs. The provider's cache of identical calls is off
 * (`cacheTimeout: -1`): on a chain that mines each transaction at once, a cached "pending" nonce is stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallExceptionError,
  type Contract,
  ContractFactory,
  type ContractTransactionResponse,
  JsonRpcProvider,
  type Log,
  Wallet,
  WebSocketProvider,
  isCallException,
  parseEther,
} from 'ethers';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ } from './sdk-world.ts';

/*
 * Compiled once by solc 0.8.37 (evmVersion paris, optimizer 200 runs, no metadata hash or CBOR); never at test time.
 *
 *   contract Counter {
 *       uint256 public count;
 *       event Added(address indexed by, uint256 amount, uint256 total);
 *       error TooMuch(uint256 amount, uint256 limit);
 *       constructor(uint256 start) payable { count = start; }
 *       function add(uint256 amount) external {
 *           require(amount != 0, "zero amount");
 *           if (amount > 1000) revert TooMuch(amount, 1000);
 *           count += amount;
 *           emit Added(msg.sender, amount, count);
 *       }
 *   }
 */
const ABI = [
  'constructor(uint256 start) payable',
  'error TooMuch(uint256 amount, uint256 limit)',
  'event Added(address indexed by, uint256 amount, uint256 total)',
  'function add(uint256 amount)',
  'function count() view returns (uint256)',
];
const BYTECODE =
  '0x60806040526040516101c73803806101c78339810160408190526020916027565b600055603f565b600060208284031215603857600080fd5b5051919050565b6101798061004e6000396000f3fe608060405234801561001057600080fd5b50600436106100365760003560e01c806306661abd1461003b5780631003e2d214610056575b600080fd5b61004460005481565b60405190815260200160405180910390f35b610069610064366004610139565b61006b565b005b806000036100ae5760405162461bcd60e51b815260206004820152600b60248201526a1e995c9bc8185b5bdd5b9d60aa1b60448201526064015b60405180910390fd5b6103e88111156100dc57604051636073b21f60e01b8152600481018290526103e860248201526044016100a5565b806000808282546100ed9190610152565b909155505060005460405133917f2a8f5e2f05e241e9eed0e8f7a9338ba078a26ed2cfc22913acfd874a2d3093c59161012e91858252602082015260400190565b60405180910390a250565b60006020828403121561014b57600080fd5b5035919050565b8082018082111561017357634e487b7160e01b600052601160045260246000fd5b9291505056';

const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const DEAD = '0x000000000000000000000000000000000000dEaD';

let node: RunningMockNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let counter: Contract;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
  provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { pollingInterval: 20, cacheTimeout: -1 });
  wallet = new Wallet(`0x${Buffer.from(EWOQ).toString('hex')}`, provider);
  const factory = new ContractFactory(ABI, BYTECODE, wallet);
  counter = (await factory.deploy(5n)) as Contract;
  await counter.waitForDeployment();
});
afterAll(async () => {
  provider?.destroy();
  await node?.close();
});

/** Waits for `add(amount)` to be mined; its receipt. */
async function add(amount: bigint) {
  const tx = (await counter.getFunction('add')(amount)) as ContractTransactionResponse;
  return (await tx.wait())!;
}

/**
 * Adds 1, 2, 3... (a block each) until `heard()`: a listener's subscription is made in the background, so the first
 * blocks may come before it. The amounts added.
 */
async function addUntil(heard: () => boolean): Promise<bigint[]> {
  const added: bigint[] = [];
  for (let amount = 1n; !heard() && amount <= 100n; amount++) {
    await add(amount);
    added.push(amount);
    // The listeners hear of a block on the provider's next poll: give them that poll before adding again.
    await provider.getBlockNumber();
  }
  return added;
}

describe('the C-Chain through ethers v6', () => {
  it('is the local network, chain 43112, and the ewoq wallet holds AVAX', async () => {
    expect(wallet.address).toBe(EWOQ_C);
    expect((await provider.getNetwork()).chainId).toBe(43112n);
    expect(await provider.getBalance(EWOQ_C, 0)).toBe(50_000_000n * 10n ** 18n);
  });

  it('sends EIP-1559, EIP-2930 and legacy transfers and waits for their receipts', async () => {
    const before = await provider.getBalance(DEAD);
    const feeData = await provider.getFeeData();
    expect(feeData.gasPrice).toBeGreaterThan(0n);
    expect(feeData.maxFeePerGas).toBeGreaterThan(0n);
    const sent = [
      await wallet.sendTransaction({ to: DEAD, value: parseEther('1') }),
      await wallet.sendTransaction({ to: DEAD, value: parseEther('2'), type: 1, gasPrice: feeData.gasPrice }),
      await wallet.sendTransaction({ to: DEAD, value: parseEther('3'), type: 0, gasPrice: feeData.gasPrice }),
    ];
    const receipts = await Promise.all(sent.map((tx) => tx.wait()));
    expect(sent.map((tx) => tx.type)).toEqual([2, 1, 0]);
    expect(receipts.map((r) => r?.status)).toEqual([1, 1, 1]);
    expect(receipts.map((r) => r?.type)).toEqual([2, 1, 0]);
    expect(await provider.getBalance(DEAD)).toBe(before + parseEther('6'));
    const mined = await provider.getTransaction(sent[0]!.hash);
    expect(mined?.blockNumber).toBe(receipts[0]!.blockNumber);
  });

  it('deploys a contract, calls it, estimates its gas and reads its logs', async () => {
    expect(await counter.getFunction('count')()).toBe(5n);
    const gas = await counter.getFunction('add').estimateGas(7n);
    expect(gas).toBeGreaterThan(21_000n);
    const receipt = await add(7n);
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);
    expect(await counter.getFunction('count')()).toBe(12n);
    const logs = await counter.queryFilter(counter.filters.Added!(EWOQ_C), 0, 'latest');
    const last = logs.at(-1) as Log & { args: unknown[] };
    expect(last.transactionHash).toBe(receipt.hash);
    expect([...last.args]).toEqual([EWOQ_C, 7n, 12n]);
  });

  it('reverts as geth answers them: the reason, a custom error and its arguments, a revert without data', async () => {
    const zero = await counter
      .getFunction('add')
      .staticCall(0n)
      .catch((error: unknown) => error);
    expect(isCallException(zero)).toBe(true);
    expect((zero as CallExceptionError).reason).toBe('zero amount');
    const estimate = await counter
      .getFunction('add')
      .estimateGas(0n)
      .catch((error: unknown) => error);
    expect(isCallException(estimate)).toBe(true);
    expect((estimate as CallExceptionError).reason).toBe('zero amount');
    const tooMuch = await counter
      .getFunction('add')
      .staticCall(2000n)
      .catch((error: unknown) => error);
    expect(isCallException(tooMuch)).toBe(true);
    const { revert } = tooMuch as CallExceptionError;
    expect([revert?.name, ...(revert?.args ?? [])]).toEqual(['TooMuch', 2000n, 1000n]);
    const bare = await provider.call({ to: await counter.getAddress(), data: '0x12345678' }).catch((e: unknown) => e);
    expect(isCallException(bare)).toBe(true);
  });

  it('hears through a polled filter only the events emitted after it subscribed', async () => {
    await add(3n);
    const heard = new Promise<bigint>((resolve) => {
      void counter.once('Added', (_by: string, amount: bigint) => resolve(amount));
    });
    // The subscription is made in the background: wait until the node holds the filter, then emit.
    let amount: bigint | undefined;
    void heard.then((value) => {
      amount = value;
    });
    const added = await addUntil(() => amount !== undefined);
    expect(added).toContain(await heard);
    expect(await heard).not.toBe(3n);
  });

  it('reads blocks: the genesis, the latest with its transactions and base fee', async () => {
    const genesis = await provider.getBlock(0);
    expect(genesis?.number).toBe(0);
    const latest = await provider.getBlock('latest', true);
    expect(latest?.number).toBe(await provider.getBlockNumber());
    expect(latest?.baseFeePerGas).toBeGreaterThan(0n);
    expect(latest?.prefetchedTransactions.length).toBeGreaterThan(0);
    expect(latest?.parentHash).toBe((await provider.getBlock(latest!.number - 1))?.hash);
  });

  it('subscribes over /ext/bc/C/ws: new blocks and a contract’s events', async () => {
    const ws = new WebSocketProvider(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
    try {
      expect((await ws.getNetwork()).chainId).toBe(43112n);
      let block: number | undefined;
      let event: unknown[] | undefined;
      await ws.once('block', (number: number) => {
        block = number;
      });
      await (counter.connect(ws) as Contract).once('Added', (...args: unknown[]) => {
        event = args.slice(0, 3);
      });
      const added = await addUntil(() => block !== undefined && event !== undefined);
      expect(block).toBeGreaterThan(0);
      expect(event).toEqual([EWOQ_C, expect.any(BigInt), expect.any(BigInt)]);
      expect(added).toContain((event as bigint[])[1]);
    } finally {
      await ws.destroy();
    }
  });
});
