/**
 * Secret results of calls the redactor reads as "not exactly one request": a batch (coreth serves them on
 * /ext/bc/C/rpc) and a request followed by more bytes (geth's decoder runs the first value). coreth's
 * `personal_initializeWallet` answers a new wallet's mnemonic (graft/coreth/internal/ethapi/api.go:572 at v1.14.2);
 * the params of such calls were left out, but their answers were recorded whole.
 */
import { describe, expect, it } from 'vitest';
import { transcriptBody } from '../../conform/transcript.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { REDACTED, Redactor } from '../../conform/redact.ts';

const redactor = new Redactor(loadSpecModel());
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const call = (id: unknown, method: string, params: unknown[] = []) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('a secret result in an answer to more than one request', () => {
  it('is redacted in a batch, by the id of the call that asked for it, and the other answers kept', () => {
    const reading = redactor.request(
      transcriptBody(
        `[${call(1, 'eth_chainId')},${call('w', 'personal_initializeWallet', ['ledger://'])},${call(3, 'eth_blockNumber')}]`,
      ),
    );
    const answer = redactor.response(reading, [
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 'w', result: MNEMONIC },
      { jsonrpc: '2.0', id: 3, result: '0x0' },
    ]);
    expect(answer).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 'w', result: REDACTED },
      { jsonrpc: '2.0', id: 3, result: '0x0' },
    ]);
  });

  it('is redacted when the request is followed by more bytes', () => {
    const reading = redactor.request(transcriptBody(`${call(1, 'personal_initializeWallet', ['ledger://'])} trailing`));
    expect(redactor.response(reading, { jsonrpc: '2.0', id: 1, result: MNEMONIC })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: REDACTED,
    });
  });

  it('is redacted in a batch whose ids repeat or that is not JSON.parse’s (all answers of a secret call’s id)', () => {
    const reading = redactor.request(
      transcriptBody(`[${call(7, 'personal_initializeWallet', ['ledger://'])},${call(7, 'eth_chainId')}] trailing`),
    );
    const answer = redactor.response(reading, [
      { jsonrpc: '2.0', id: 7, result: MNEMONIC },
      { jsonrpc: '2.0', id: 7, result: '0xa868' },
    ]);
    expect(JSON.stringify(answer)).not.toContain('abandon');
  });
});
