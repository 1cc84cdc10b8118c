/**
 * What the wallet's transactions need of the node, over its HTTP API: the key and its addresses on each chain, the
 * UTXOs, the fee state, the C-Chain's base fee, the chain time, the SDK context, and issuing a signed transaction and
 * waiting for its acceptance.
 */
import type { UnsignedTx, Utxo } from '@avalabs/avalanchejs';
import { bech32Encode, cb58Decode } from '../../generators/formats.ts';
import { X2C_RATE } from '../cchain/genesis.ts';
import { ethChecksum } from '../engine/dev.ts';
import { avalanche } from '../shared/avalanche.ts';

export type Chain = 'X' | 'P' | 'C';
export type SdkContext = Awaited<ReturnType<typeof import('@avalabs/avalanchejs').Context.getContextFromURI>>;

/** How long `issue` waits for a block that takes the transaction (manual mining: until `dev.mine`). */
export const ACCEPTANCE_WAIT_MS = 30_000;

export class KeyOnNode {
  /** The key's address on each chain (`X-local1…`, `P-local1…`, and on the C-Chain's EVM `0x…`, EIP-55). */
  readonly address: Record<Chain, string>;
  protected readonly key: Uint8Array;
  protected readonly bytes: Uint8Array;
  /** The EVM address's 20 bytes (an export's input on C, an import's output). */
  protected readonly ethBytes: Uint8Array;
  /** `C-local1…`: the owner of UTXOs exported to the C-Chain, in its shared memory. */
  protected readonly atomicAddress: string;
  private context: Promise<SdkContext> | undefined;
  /** The node's base URL (`http://127.0.0.1:9650`). */
  protected readonly url: string;

  /** `privateKey`: `PrivateKey-<cb58>`, as `dev.listAccounts` and the CLI print it. */
  constructor(url: string, privateKey: string, hrp: string) {
    this.url = url;
    const secret = cb58Decode(privateKey.replace(/^PrivateKey-/, ''));
    if (secret?.length !== 32) throw new Error('not a private key: expected PrivateKey-<cb58>');
    this.key = secret;
    const { secp256k1 } = avalanche();
    const publicKey = secp256k1.getPublicKey(secret);
    this.bytes = new Uint8Array(secp256k1.publicKeyBytesToAddress(publicKey));
    this.ethBytes = new Uint8Array(secp256k1.publicKeyToEthAddress(publicKey));
    const bech32 = bech32Encode(hrp, this.bytes);
    this.atomicAddress = `C-${bech32}`;
    this.address = { X: `X-${bech32}`, P: `P-${bech32}`, C: ethChecksum(Buffer.from(this.ethBytes).toString('hex')) };
  }

  /**
   * Signs and issues the transaction, then waits until a block accepts it (or the chain drops it: that throws). With
   * `authorizes`, the key also signs the last credential: a subnet's authorization, which avalanchejs' addTxSignatures
   * leaves unsigned.
   */
  async issue(chain: Chain, unsigned: UnsignedTx, options: { authorizes?: boolean } = {}): Promise<string> {
    const { addTxSignatures, avm, evm, pvm, secp256k1 } = avalanche();
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: [this.key] });
    if (options.authorizes)
      unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), this.key));
    const api = chain === 'X' ? new avm.AVMApi(this.url) : chain === 'P' ? new pvm.PVMApi(this.url) : undefined;
    const cApi = new evm.EVMApi(this.url);
    const { txID } = await (api ?? cApi).issueSignedTx(unsigned.getSignedTx());
    const deadline = Date.now() + ACCEPTANCE_WAIT_MS;
    for (;;) {
      const answer = (api ? await api.getTxStatus({ txID }) : await cApi.getAtomicTxStatus(txID)) as {
        status: string;
        reason?: string;
      };
      if (answer.status === 'Accepted' || answer.status === 'Committed') return txID;
      if (answer.status === 'Dropped' || answer.status === 'Aborted' || answer.status === 'Rejected')
        throw new Error(`${chain}-Chain tx ${txID} ${answer.status.toLowerCase()}: ${answer.reason ?? ''}`.trim());
      if (Date.now() > deadline) throw new Error(`${chain}-Chain tx ${txID} still ${answer.status}: mine a block`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Every UTXO of the key on the chain (or those exported to it from `sourceChain`, the only ones C has), page after
   * page.
   */
  protected async utxos(chain: Chain, sourceChain?: string): Promise<Utxo[]> {
    const { avm, evm, pvm } = avalanche();
    const api =
      chain === 'X' ? new avm.AVMApi(this.url) : chain === 'P' ? new pvm.PVMApi(this.url) : new evm.EVMApi(this.url);
    const all: Utxo[] = [];
    let startIndex: { address: string; utxo: string } | undefined;
    for (;;) {
      const page = await api.getUTXOs({
        addresses: [chain === 'C' ? this.atomicAddress : this.address[chain]],
        ...(sourceChain ? { sourceChain } : {}),
        ...(startIndex ? { startIndex } : {}),
      });
      all.push(...page.utxos);
      if (page.numFetched < 1024) return all;
      startIndex = page.endIndex;
    }
  }

  /** What every P-Chain builder takes: the fee state now, this key as the spender, the UTXOs. */
  protected async pBase(utxos: Utxo[]) {
    const { pvm } = avalanche();
    return { feeState: await new pvm.PVMApi(this.url).getFeeState(), fromAddressesBytes: [this.bytes], utxos };
  }

  /** The C-Chain's base fee in nAVAX (rounded up, as coreth rounds the fee it charges): atomic txs pay at it. */
  protected async cBaseFee(): Promise<bigint> {
    const wei = await new (avalanche().evm.EVMApi)(this.url).getBaseFee();
    return (wei + X2C_RATE - 1n) / X2C_RATE;
  }

  protected async chainTime(): Promise<bigint> {
    const { pvm } = avalanche();
    const { timestamp } = await new pvm.PVMApi(this.url).getTimestamp();
    return BigInt(Math.floor(Date.parse(timestamp) / 1000));
  }

  protected sdkContext(): Promise<SdkContext> {
    const context = this.context ?? avalanche().Context.getContextFromURI(this.url);
    this.context = context;
    return context;
  }
}
