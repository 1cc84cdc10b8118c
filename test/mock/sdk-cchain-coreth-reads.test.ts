/**
 * Reads of /ext/bc/C/rpc that a wallet or a block explorer makes and that coreth answers with its own code, not the
 * engine's: the web3 namespace (enabled by default: plugin/evm/config defaultEnabledAPIs), and blocks past the last
 * accepted one or named by an unknown hash (eth/api_backend.go: ErrUnfinalizedData, "header for hash not found";
 * allow-unfinalized-queries is off by default): mock/cchain/coreth-reads.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const UNKNOWN_HASH = `0x${'11'.repeat(32)}`;
const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
/** A block number past the last accepted one. */
const future = async () => `0x${(BigInt((await c('eth_blockNumber', [])).result) + 5n).toString(16)}`;

describe('/ext/bc/C/rpc reads that coreth answers itself', () => {
  it('serves the methods that stay as the engine has them', async () => {
    expect((await c('net_version', [])).result).toBe('43112');
    expect((await c('eth_getBlockByHash', [UNKNOWN_HASH, false])).result).toBeNull();
  });

  // Fixed (mock/cchain/coreth-reads.ts): coreth registers node/api.go's web3API (web3_clientVersion: the node config's CorethVersion, the version the
  // evm reports in info.getNodeVersion's vmVersions; web3_sha3: Keccak-256 of its hex input) and "web3" is in
  // defaultEnabledAPIs, so a v1.14.2 C-Chain answers both. The mock refuses them with -32601 ("the method
  // web3_clientVersion does not exist/is not available"): mock/cchain/params.ts unservedMethods / the C-Chain document
  // (openrpc/c-chain) does not list them, and rpc.ts passes web3_* to EDR otherwise. ethers' and web3.js' provider
  // probes call web3_clientVersion.
  it('answers web3_clientVersion with the evm version of info.getNodeVersion, and web3_sha3', async () => {
    const info = await callRpc(`${node.url}/ext/info`, 'info.getNodeVersion', {});
    expect((await c('web3_clientVersion', [])).result).toBe(info.result.vmVersions.evm);
    expect((await c('web3_sha3', ['0x68656c6c6f20776f726c64'])).result).toBe(
      '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad',
    );
  });

  // Fixed (mock/cchain/coreth-reads.ts): coreth's "net" API (internal/ethapi NetAPI, enabled by default) answers net_listening true and
  // net_peerCount "0x0" (a hard-coded hexutil.Uint(0)) besides net_version; the mock refuses both with -32601 ("the
  // method net_listening does not exist/is not available"), as the C-Chain document does not list them. web3.js'
  // and some health checks call net_listening.
  it('answers net_listening and net_peerCount as coreth’s NetAPI', async () => {
    expect(await c('net_listening', [])).toEqual({ result: true });
    expect(await c('net_peerCount', [])).toEqual({ result: '0x0' });
  });

  // Fixed (mock/cchain/coreth-reads.ts): eth_sign (internal/ethapi TransactionAPI.Sign, in the default "internal-transaction" API) looks the address
  // up in the node's account manager, which holds no key, and answers accounts.ErrUnknownAccount: -32000 "unknown
  // account". The mock hands it to EDR, whose text is "Unknown account 0x8db9…52FC" with `"data":null`
  // (mock/cchain/rpc.ts refuses eth_sendTransaction this way; eth_signTransaction is mock/cchain/sign-fill.ts's).
  it('refuses eth_sign for an address the node holds no key of, as coreth', async () => {
    expect(await c('eth_sign', [EWOQ_C, '0x00'])).toEqual({ error: { code: -32000, message: 'unknown account' } });
  });

  // coreth's VM sets the miner's etherbase to the blackhole address (plugin/evm/vm.go SetEtherbase(constants.BlackholeAddr)),
  // which eth_coinbase answers (eth/api.go Coinbase) where EDR names its own coinbase, the zero address.
  it("answers eth_coinbase with coreth's etherbase, the blackhole address", async () => {
    expect(await c('eth_coinbase', [])).toEqual({ result: '0x0100000000000000000000000000000000000000' });
  });

  // Fixed (mock/cchain/coreth-reads.ts): a state read at a block past the last accepted one gets EDR's text "Received invalid block tag 9. Latest
  // block number is 4" with `"data":null`, where coreth's StateAndHeaderByNumber -> HeaderByNumber answers
  // ErrUnfinalizedData, -32000 "cannot query unfinalized data" (and geth never writes a null data: jsonError's Data is
  // omitempty). Fix in mock/cchain/rpc.ts: check a block-number param of eth_getBalance, eth_getCode,
  // eth_getStorageAt, eth_getTransactionCount, eth_call, eth_estimateGas, eth_getProof against the last accepted block
  // before handing the call to the engine.
  it('refuses a state read past the last accepted block with coreth’s ErrUnfinalizedData', async () => {
    const block = await future();
    for (const [method, params] of [
      ['eth_getBalance', [EWOQ_C, block]],
      ['eth_getCode', [EWOQ_C, block]],
      ['eth_getTransactionCount', [EWOQ_C, block]],
      ['eth_call', [{ to: EWOQ_C }, block]],
    ] as const)
      expect(await c(method, [...params]), method).toEqual({
        error: { code: -32000, message: 'cannot query unfinalized data' },
      });
  });

  // Fixed (mock/cchain/coreth-reads.ts): coreth's BlockByNumber and HeaderByNumber return ErrUnfinalizedData for a number past the last accepted
  // block, and internal/ethapi's GetBlockByNumber / GetHeaderByNumber hand the error on ("return nil, err"); the mock
  // answers null (mock/cchain/coreth-block.ts readBlock). viem's getBlock then throws BlockNotFoundError instead of
  // the node's RPC error.
  it('refuses a block or header past the last accepted one, as coreth, instead of answering null', async () => {
    const block = await future();
    for (const method of ['eth_getBlockByNumber', 'eth_getHeaderByNumber'])
      expect(await c(method, method === 'eth_getBlockByNumber' ? [block, false] : [block]), method).toEqual({
        error: { code: -32000, message: 'cannot query unfinalized data' },
      });
  });

  // Fixed (mock/cchain/coreth-reads.ts): an EIP-1898 block param naming a hash the chain does not have gets EDR's "Received invalid block tag 0x11…11.
  // Latest block number is 0" (with `"data":null`); coreth's StateAndHeaderByNumberOrHash answers -32000 "header for
  // hash not found".
  it('refuses a state read at an unknown block hash (EIP-1898) with "header for hash not found"', async () => {
    expect(await c('eth_getBalance', [EWOQ_C, { blockHash: UNKNOWN_HASH }])).toEqual({
      error: { code: -32000, message: 'header for hash not found' },
    });
  });

  it('refuses eth_getProof at an unknown block hash in GetProof’s own words, and past the last accepted block', async () => {
    expect(await c('eth_getProof', [EWOQ_C, [], { blockHash: UNKNOWN_HASH }])).toEqual({
      error: {
        code: -32000,
        message: `historical proof query not allowed: block from hash ${UNKNOWN_HASH} doesn't exist`,
      },
    });
    expect(await c('eth_getStorageAt', [EWOQ_C, '0x0', await future()])).toEqual({
      error: { code: -32000, message: 'cannot query unfinalized data' },
    });
  });

  it('reads state at a known block hash (EIP-1898), requireCanonical or not', async () => {
    const genesis = (await c('eth_getBlockByNumber', ['0x0', false])).result;
    const atNumber = (await c('eth_getBalance', [EWOQ_C, '0x0'])).result;
    for (const requireCanonical of [true, false])
      expect((await c('eth_getBalance', [EWOQ_C, { blockHash: genesis.hash, requireCanonical }])).result).toBe(
        atNumber,
      );
  });
});
