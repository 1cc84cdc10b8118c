/**
 * The C-Chain (issue 26): startMockNode in process until its first C-Chain answer (target <= 50 ms; the EVM engine is
 * created on the first C call, so start-up alone is beside it), an eth_sendRawTransaction transfer (<= 5 ms at the
 * median), an atomic C → P round trip, export on C and import on P, each built, signed and issued with avalanchejs over
 * HTTP (<= 10 ms), and the RSS of a node whose C-Chain has served them (<= 150 MB), measured in a process of its own.
 * That node's CPU time per round trip is given too: on the shared host the wall times mostly measure the neighbours.
 * Each of the six calls is broken down: its wall time, the client's CPU time in it and the node's from request to answer.
 * Nothing here asserts a time.
 */
import { fork } from 'node:child_process';
import { startMockNode } from '../mock/node.ts';
import { EWOQ_PRIVATE_KEY } from '../mock/world/networks.ts';
import { type Post, fetchPost, httpPost, sendThrough } from './http-post.ts';
import { median } from './median.ts';

// The clients' libraries are loaded by the parent only, so that the child's RSS is the node's.
export const clients = async () => {
  const [avalanchejs, accounts] = await Promise.all([import('@avalabs/avalanchejs'), import('viem/accounts')]);
  const { secp256k1, utils } = avalanchejs;
  const key = new Uint8Array(utils.base58check.decode(EWOQ_PRIVATE_KEY.slice('PrivateKey-'.length)));
  const publicKey = secp256k1.getPublicKey(key);
  return {
    ...avalanchejs,
    privateKeyToAccount: accounts.privateKeyToAccount,
    EWOQ: key,
    EWOQ_SHORT: secp256k1.publicKeyBytesToAddress(publicKey),
    EWOQ_EVM: secp256k1.publicKeyToEthAddress(publicKey),
  };
};
export type Clients = Awaited<ReturnType<typeof clients>>;

const ms = (start: number) => performance.now() - start;

const post = fetchPost;

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

async function transfers(url: string, { privateKeyToAccount, EWOQ }: Clients): Promise<void> {
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

/** Each of the round trip's six calls to the mock goes through `timed`. */
type Timed = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * One atomic C → P round trip per call: the EVM nonce and base fee, an export on C to P, P's UTXOs from C and fee
 * state, an import on P; both txs built and signed with avalanchejs between the calls, its API classes sending them
 * through `call` (./http-post.ts: `fetch`, as avalanchejs does, or node:http).
 */
export async function tripper(
  url: string,
  lib: Clients,
  call: Post = fetchPost,
): Promise<(timed: Timed) => Promise<{ exported: string; imported: string }>> {
  const { Context, addTxSignatures, evm, pvm, utils, EWOQ, EWOQ_SHORT, EWOQ_EVM } = lib;
  const ctx = await Context.getContextFromURI(url);
  const p = new pvm.PVMApi(url);
  const c = new evm.EVMApi(url);
  if (call !== fetchPost) for (const api of [p, c, c.ethAPI]) sendThrough(api, call);
  const pAddress = `P-${utils.formatBech32(ctx.hrp, EWOQ_SHORT)}`;
  const evmAddress = `0x${Buffer.from(EWOQ_EVM).toString('hex')}`;
  return async (timed) => {
    const nonce = BigInt(
      (await timed(() => call(`${url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [evmAddress, 'latest']))) as string,
    );
    const baseFee = ((await timed(() => c.getBaseFee())) + 999_999_999n) / 1_000_000_000n;
    const exported = evm.newExportTxFromBaseFee(ctx, baseFee, AMOUNT, ctx.pBlockchainID, EWOQ_EVM, [EWOQ_SHORT], nonce);
    await addTxSignatures({ unsignedTx: exported, privateKeys: [EWOQ] });
    const { txID: exportID } = await timed(() => c.issueSignedTx(exported.getSignedTx()));
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
    const { txID: importID } = await timed(() => p.issueSignedTx(imported.getSignedTx()));
    return { exported: exportID, imported: importID };
  };
}

type NodeFigures = { cpu: number; perRequest: number[]; wallPerRequest: number[] };

/** One transport's figures, per trip after the warm-up. */
class TripFigures {
  readonly total: number[] = [];
  readonly mock: number[] = [];
  // The two issueTx calls alone: export on C and import on P, each from issue to accepted (checked below).
  readonly issued: number[] = [];
  // The client's CPU time per trip outside the calls (avalanchejs building and signing both txs), and in them.
  readonly signing: number[] = [];
  readonly clientInCalls: number[] = [];
  // Per call: its wall time and the client's own CPU time in it (fetch, avalanchejs' parsing).
  readonly calls: Array<{ wall: number[]; client: number[] }> = [];
  last = { exported: '', imported: '' };
}

/**
 * The round trips' figures over the rounds after the warm-up, each round one trip through each transport in turn (so
 * that the host's load falls on both alike); `node.cpu` reads the node's CPU time (ms) and each request's CPU and wall
 * time since the last reading, `node.memory` gives its RSS at the end of the warm-up (after as many calls as this bench
 * made before it had more rounds, so that the figure compares with the earlier ones).
 */
async function roundTrips(
  url: string,
  lib: Clients,
  transports: ReadonlyArray<{ name: string; call: Post }>,
  node: { cpu(): Promise<NodeFigures>; memory(): Promise<void> },
): Promise<void> {
  const trips = await Promise.all(transports.map(({ call }) => tripper(url, lib, call)));
  const figures = transports.map(() => new TripFigures());
  const rounds = 100;
  const warmUp = 25;
  let cpuAtStart = 0;
  for (let i = 0; i < rounds; i++) {
    if (i === warmUp) {
      await node.memory();
      cpuAtStart = (await node.cpu()).cpu;
    }
    for (const [t, trip] of trips.entries()) {
      const f = figures[t]!;
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      let inMock = 0;
      let inCalls = 0;
      const walls: number[] = [];
      let index = 0;
      f.last = await trip(async <T>(call: () => Promise<T>): Promise<T> => {
        const at = performance.now();
        const cpuAt = process.cpuUsage();
        const result = await call();
        const { user, system } = process.cpuUsage(cpuAt);
        inMock += ms(at);
        inCalls += (user + system) / 1000;
        walls.push(ms(at));
        const perCall = (f.calls[index++] ??= { wall: [], client: [] });
        if (i >= warmUp) {
          perCall.wall.push(ms(at));
          perCall.client.push((user + system) / 1000);
        }
        return result;
      });
      if (i < warmUp) continue;
      const { user, system } = process.cpuUsage(cpuStarted);
      f.total.push(ms(started));
      f.mock.push(inMock);
      f.issued.push(walls[2]! + walls[5]!);
      f.signing.push((user + system) / 1000 - inCalls);
      f.clientInCalls.push(inCalls);
    }
  }
  // Each issueTx answers once its tx is accepted (automine): the last trip's two are, before any other call.
  for (const { last } of figures) {
    const statuses = [
      await post(`${url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID: last.exported }),
      await post(`${url}/ext/bc/P`, 'platform.getTxStatus', { txID: last.imported }),
    ] as Array<{ status: string }>;
    // The P-Chain says Committed of an accepted tx (vms/platformvm/status), the C-Chain's atomic API Accepted.
    if (statuses[0]?.status !== 'Accepted' || statuses[1]?.status !== 'Committed')
      throw new Error(`a round trip's txs were not accepted when answered: ${JSON.stringify(statuses)}`);
  }
  const atEnd = await node.cpu();
  const perTrip = figures[0]!.calls.length;
  console.log(
    `atomic C → P round trips (nonce, base fee, export on C, getUTXOs, fee state, import on P), ${rounds - warmUp} ` +
      `through each client after ${warmUp}: the node's CPU time ${((atEnd.cpu - cpuAtStart) / ((rounds - warmUp) * trips.length)).toFixed(2)} ` +
      'ms per round trip (mean; every thread, HTTP included)',
  );
  const column = (lists: number[][]) => lists.map((list) => median(list).toFixed(2)).join(' / ');
  for (const [t, { name }] of transports.entries()) {
    const f = figures[t]!;
    // The node's requests of this transport's trips (the status checks above come after them all).
    const mine = (list: number[]) =>
      Array.from({ length: perTrip }, (_, k) =>
        list.filter((_, j) => j % perTrip === k && Math.floor(j / perTrip) % trips.length === t),
      );
    const nodeCalls = mine(atEnd.perRequest);
    const nodeWalls = mine(atEnd.wallPerRequest);
    const nodeWall = median(nodeWalls[0]!.map((_, j) => nodeWalls.reduce((sum, w) => sum + w[j]!, 0)));
    console.log(
      `- through ${name}: **${median(f.mock).toFixed(2)} ms** median in the mock's six calls (target <= 10); ` +
        `${median(f.total).toFixed(2)} ms with avalanchejs building and signing both txs; ` +
        `${median(f.issued).toFixed(2)} ms in the two issueTx calls alone (export on C and import on P, each issue to ` +
        `accepted); the node's wall time from request to answer ${nodeWall.toFixed(2)} ms in the six; the client's CPU ` +
        `${median(f.signing).toFixed(2)} ms building and signing (avalanchejs) and ` +
        `${median(f.clientInCalls).toFixed(2)} ms in the six calls (${name}, parsing)`,
    );
    console.log(
      `  per call (medians, ms): wall ${column(f.calls.map((c) => c.wall))}; the client's CPU in it ` +
        `${column(f.calls.map((c) => c.client))}; the node's CPU from request to answer ${column(nodeCalls)}, ` +
        `its wall time ${column(nodeWalls)}`,
    );
  }
}

const AMOUNT = 2_000_000_000n;

type ChildAnswer = {
  url?: string;
  cpu?: number;
  rss?: number;
  rssReduced?: number;
  perRequest?: number[];
  wallPerRequest?: number[];
};

/**
 * In the child: the node alone, so that its RSS is the node's; the parent calls it and asks for its CPU time, and its
 * RSS after a full collection and after one that also gives V8's young generation back (as V8 does under memory
 * pressure; it keeps what it grew to under load until then).
 */
async function child(): Promise<void> {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 10 } });
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  // Each request's CPU and wall time from its arrival to its answer's last byte written, since the last 'cpu' question.
  let perRequest: number[] = [];
  let wallPerRequest: number[] = [];
  node.server.on('request', (_request, response) => {
    const at = cpuNow();
    const wallAt = performance.now();
    response.on('finish', () => {
      perRequest.push(cpuNow() - at);
      wallPerRequest.push(performance.now() - wallAt);
    });
  });
  process.on('message', (message) => {
    if (message === 'cpu') {
      process.send!({ cpu: cpuNow(), perRequest, wallPerRequest } satisfies ChildAnswer);
      perRequest = [];
      wallPerRequest = [];
    } else if (message === 'rss') {
      const gc = globalThis.gc as unknown as (options?: object) => void;
      gc();
      const rss = process.memoryUsage().rss / 1e6;
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      process.send!({ rss, rssReduced: process.memoryUsage().rss / 1e6 } satisfies ChildAnswer);
    } else void node.close().then(() => process.exit(0));
  });
  process.send!({ url: node.url } satisfies ChildAnswer);
}

export default async function bench(): Promise<void> {
  await startUps();
  // The child runs as `npm run mock` does (Node's type stripping, this process's flags), collecting on demand.
  const worker = fork(import.meta.filename, ['--child'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: 'inherit',
  });
  const next = () =>
    new Promise<ChildAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const ask = (question: 'cpu' | 'rss') => {
    const answer = next();
    worker.send(question);
    return answer;
  };
  const [{ url }, lib] = await Promise.all([next(), clients()]);
  await transfers(url!, lib);
  // As a wallet on avalanchejs sends them (fetch), and through node:http: what is left is the node's and the kernel's.
  const transports = [
    { name: 'fetch', call: fetchPost },
    { name: 'node:http', call: httpPost() },
  ];
  await roundTrips(url!, lib, transports, {
    cpu: async () => {
      const { cpu, perRequest, wallPerRequest } = await ask('cpu');
      return { cpu: cpu!, perRequest: perRequest!, wallPerRequest: wallPerRequest! };
    },
    memory: async () => {
      const { rss, rssReduced } = await ask('rss');
      console.log(
        `RSS of that node (its own process, after the transfers and 25 round trips, and a full collection): ` +
          `${rss!.toFixed(0)} MB (target <= 150); ${rssReduced!.toFixed(0)} MB once V8 gives back its young generation`,
      );
    },
  });
  worker.send('exit');
}

if (process.argv.includes('--child')) await child();
