/**
 * Wallets for fork tests: one that signs without issuing (a transaction built at the source, issued on the fork), and
 * one on a fork that finds what it imports at the source: the fork sees the import before any read of that shared
 * memory, so only the export that made each input can tell it what the import spends.
 */
import { Wallet } from '../../mock/package/wallet.ts';
import type { Chain } from '../../mock/package/wallet-key.ts';
import { avalanche } from '../../mock/shared/avalanche.ts';

/** A wallet that signs what it builds and keeps the bytes (`signed`) instead of issuing them. */
export class Signer extends Wallet {
  signed = '';
  override async issue(_chain: unknown, unsigned: Parameters<Wallet['issue']>[1]): Promise<string> {
    const { addTxSignatures, utils } = avalanche();
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: [this.key] });
    this.signed = utils.bufferToHex(utils.addChecksum(unsigned.getSignedTx().toBytes()));
    return '';
  }
}

class SharedMemoryReader extends Wallet {
  exported(chain: Chain, sourceChain: string) {
    return this.utxos(chain, sourceChain);
  }
}

export class ImportsWhatTheSourceHolds extends Wallet {
  private readonly atSource: SharedMemoryReader;

  constructor(forkUrl: string, sourceUrl: string, privateKey: string, hrp: string) {
    super(forkUrl, privateKey, hrp);
    this.atSource = new SharedMemoryReader(sourceUrl, privateKey, hrp);
  }

  protected override async utxos(chain: Chain, sourceChain?: string) {
    return sourceChain ? this.atSource.exported(chain, sourceChain) : super.utxos(chain);
  }
}
