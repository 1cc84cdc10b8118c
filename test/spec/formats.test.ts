import { describe, expect, it } from 'vitest';
import {
  avalancheFormats,
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  hexDecode,
  hexEncode,
} from '../../generators/formats.ts';

// Real values from the node's documentation samples.
const TX_ID = '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm';
const NODE_ID = 'NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD';
const ADDRESS = 'P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5';
// The hex of one UTXO, with its checksum, in lines of 100 digits.
const UTXO_HEX = [
  '0x0000a195046108a85e60f7a864bb567745a37f50c6af282103e47cc62f036cee404700000000345aa98e8a990f4101e226',
  '8fab4c4e1f731c8dfbcffa3a77978686e6390d624f000000070000000000000001000000000000000000000001000000018b',
  'a98dabaebcd83056799841cfbc567d8b10f216c1f01765',
].join('');

describe('avalanche formats', () => {
  it.each<[keyof typeof avalancheFormats, string, boolean]>([
    ['avax-cb58', TX_ID, true],
    ['avax-cb58', '11111111111111111111111111111111LpoYY', true],
    ['avax-cb58', `${TX_ID.slice(0, -1)}n`, false],
    ['avax-node-id', NODE_ID, true],
    ['avax-node-id', NODE_ID.replace('NodeID-', ''), false],
    ['avax-address', ADDRESS, true],
    ['avax-address', `${ADDRESS.slice(0, -1)}4`, false],
    ['avax-bech32', ADDRESS.slice(2), true],
    ['avax-hex', UTXO_HEX, true],
    ['avax-hex', `${UTXO_HEX.slice(0, -2)}00`, false],
    ['avax-hex', UTXO_HEX.slice(2), false],
  ])('%s accepts %s: %s', (format, value, valid) => {
    expect(avalancheFormats[format](value)).toBe(valid);
  });

  it('round-trips encodings', () => {
    const payload = Uint8Array.from({ length: 32 }, (_, i) => (i * 37) % 256);
    expect(cb58Decode(cb58Encode(payload))).toEqual(payload);
    expect(hexDecode(hexEncode(payload))).toEqual(payload);
    const decoded = bech32Decode(ADDRESS.slice(2))!;
    expect(bech32Encode(decoded.hrp, decoded.payload)).toBe(ADDRESS.slice(2));
    expect(cb58Encode(cb58Decode(TX_ID)!)).toBe(TX_ID);
  });

  it('keeps leading zero bytes in cb58', () => {
    expect(cb58Encode(new Uint8Array(32))).toBe('11111111111111111111111111111111LpoYY');
    expect(cb58Decode('11111111111111111111111111111111LpoYY')).toEqual(new Uint8Array(32));
  });
});
