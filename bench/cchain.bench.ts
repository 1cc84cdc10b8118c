/**
 * The C-Chain (issue 26): startMockNode in process until its first C-Chain answer (target <= 50 ms; the EVM engine is
 * created on the first C call, so start-up alone is beside it), an eth_sendRawTransaction transfer (<= 5 ms at the
 * median), an atomic C → P round trip, export on C and import on P, each built, signed and issued with avalanchejs over
 * HTTP (<= 10 ms), and the RSS of a node whose C-Chain has served them (<= 150 MB), measured in a process of its own.
 * Nothing here asserts a time.
 */
import { fork } from 'node:child_process';
import { Context, addTxSignatures, evm, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { privateKeyToAccount } from 'viem/accounts';
import { startMockNode } from '../mock/node.ts';
import { EWOQ_PRIVATE_KEY } from '../mock/world/networks.ts';
import { median } from './median.ts';

const EWOQ = new Uint8Array(utils.base58check.decode(EWOQ_PRIVATE_KEY.slice('PrivateKey-'.length)));
const EWOQ_SHORT = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(EWOQ));
const EWOQ_EVM = secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(EWOQ));
const ms = (start: number) => performance.now() - start;

const post = async (url: string, method: string, params: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
};

async function startUps(): Promise<void> {
  const starts: number[] = [];
  const withC: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 10 } });
    starts.push(ms(started));
    await post(`${node.url}/ext/bc/C/rpc`, 'eth_chainId', []);
    withC.push(ms(started));
    await node.close();
  }
  console.log(
    `startMockNode: ${median(starts).toFixed(1)} ms; to its first C-Chain answer: ${median(withC).toFixed(1)} ms ` +
      `(median of 10; the first, loading the engine: ${withC[0]!.toFixed(1)} ms; target <= 50)`,
  );
}

async function transfers(url: string): Promise<void> {
  const account = privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`);
  const rpc = `${url}/ext/bc/C/rpc`;
  const nonce = Number(await post(rpc, 'eth_getTransactionCount', [account.address, 'latest']));
  const raws: string[] = [];
  for (let i = 0; i < 120; i++)
    raws.push(
      await account.signTransaction({
        chainId: 43112,
        type: 'eip1559',
        to: '0x00000000000000000000000000000000000000aa',
        value: 1n,
        nonce: nonce + i,
        gas: 21_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
      }),
    );
  const times: number[] = [];
  for (const raw of raws) {
    const started = performance.now();
    await post(rpc, 'eth_sendRawTransaction', [raw]);
    times.push(ms(started));
  }
  console.log(
    `eth_sendRawTransaction (a transfer, automined): ${median(times.slice(20)).toFixed(2)} ms median (target <= 5)`,
  );
}

async function roundTrips(url: string): Promise<void> {
  const ctx = await Context.getContextFromURI(url);
  const p = new pvm.PVMApi(url);
  const c = new evm.EVMApi(url);
  const pAddress = `P-${utils.formatBech32(ctx.hrp, EWOQ_SHORT)}`;
  const evmAddress = `0x${Buffer.from(EWOQ_EVM).toString('hex')}`;
  const total: number[] = [];
  const mock: number[] = [];
  for (let i = 0; i < 25; i++) {
    const started = performance.now();
    let inMock = 0;
    const timed = async <T>(call: () => Promise<T>): Promise<T> => {
      const at = performance.now();
      const result = await call();
      inMock += ms(at);
      return result;
    };
    const nonce = BigInt(
      (await timed(() => post(`${url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [evmAddress, 'latest']))) as string,
    );
    const baseFee = ((await timed(() => c.getBaseFee())) + 999_999_999n) / 1_000_000_000n;
    const exported = evm.newExportTxFromBaseFee(ctx, baseFee, AMOUNT, ctx.pBlockchainID, EWOQ_EVM, [EWOQ_SHORT], nonce);
    await addTxSignatures({ unsignedTx: exported, privateKeys: [EWOQ] });
    await timed(() => c.issueSignedTx(exported.getSignedTx()));
    const { utxos } = await timed(() => p.getUTXOs({ addresses: [pAddress], sourceChain: 'C' }));
    const feeState = await timed(() => p.getFeeState());
    const imported = pvm.newImportTx(
      {
        feeState,
        fromAddressesBytes: [EWOQ_SHORT],
        sourceChainId: ctx.cBlockchainID,
        toAddressesBytes: [EWOQ_SHORT],
        utxos,
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: imported, privateKeys: [EWOQ] });
    await timed(() => p.issueSignedTx(imported.getSignedTx()));
    total.push(ms(started));
    mock.push(inMock);
  }
  console.log(
    `atomic C → P round trip (nonce, base fee, export on C, getUTXOs, fee state, import on P): ` +
      `${median(mock.slice(5)).toFixed(2)} ms median in the mock's six calls (target <= 10); ` +
      `${median(total.slice(5)).toFixed(2)} ms with avalanchejs building and signing both txs`,
  );
}

const AMOUNT = 2_000_000_000n;

/** In the child: the node alone, so that its RSS is the node's; the parent calls it and asks for the figure. */
async function child(): Promise<void> {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 10 } });
  process.on('message', () => {
    globalThis.gc?.();
    process.send!({ rss: process.memoryUsage().rss / 1e6 });
    void node.close().then(() => process.exit(0));
  });
  process.send!({ url: node.url });
}

export default async function bench(): Promise<void> {
  await startUps();
  // The child runs as `npm run mock` does (Node's type stripping, this process's flags), collecting on demand.
  const worker = fork(import.meta.filename, ['--child'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: 'inherit',
  });
  const next = () =>
    new Promise<{ url?: string; rss?: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const { url } = await next();
  await transfers(url!);
  await roundTrips(url!);
  const answer = next();
  worker.send('rss');
  const { rss } = await answer;
  console.log(`RSS of that node (its own process, after the calls above): ${rss!.toFixed(0)} MB (target <= 150)`);
}

if (process.argv.includes('--child')) await child();
