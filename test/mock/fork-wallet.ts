/**
 * A wallet on a fork that finds what it imports at the source: the fork sees the import before any read of that
 * shared memory, so only the export that made each input can tell it what the import spends.
 */
import { Wallet } from '../../mock/package/wallet.ts';
import type { Chain } from '../../mock/package/wallet-key.ts';

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
