/**
 * The node's string encodings of bytes, with their checksums: validation uses the decoders (a malformed example fails
 * the spec); the mock uses the encoders (real client libraries decode what it returns). One implementation, the server
 * runtime's, which the generated packages ship.
 */
import { cb58Encode } from '../runtime/server/formats.ts';

export {
  avalancheFormats,
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  hexDecode,
  hexEncode,
} from '../runtime/server/formats.ts';

/** The all-zero ID: the Primary Network's subnet ID, and the P-Chain's blockchain ID. */
export const PRIMARY_NETWORK_ID = cb58Encode(new Uint8Array(32));
