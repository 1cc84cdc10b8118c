/**
 * Who the mock node is on its network, and who it is connected to. The node is the network's first genesis staker:
 * on `local` the real local node 1 (NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg) with its genesis BLS key; on `fuji` and
 * `mainnet` the first synthetic staker (named from the seed), whose BLS key is derived from its node ID here, with
 * the proof of possession the node signs (a BLS signature of the public key under the PoP ciphersuite). Its peers
 * are the other current Primary Network validators, all connected (as getCurrentValidators reports them), on
 * 127.0.0.1 staking ports 9653, 9655, ... in validator order (the node itself is 9651, as on a local network).
 *
 * Each peer dialed this node: a local network's nodes dial the nodes started before them, and this one is the first,
 * so a connection's remote address is the peer's ephemeral port (Linux's 32768-60999), its signed IP the staking port.
 * An idle connection still carries a message each way at least once a second (pull gossip of the chains' mempools,
 * pings); when in the second is the peer's phase, drawn from the seed like the ports.
 */
import { isConnected } from './uptime.ts';
import { createHash } from 'node:crypto';
import { bls12381 } from './bls12-381.ts';
import { SECOND } from './go-time.ts';
import { EMPTY_ID } from './networks.ts';
import { validatorsOf } from './stakers.ts';
import type { Staker } from './types.ts';
import type { World } from './world.ts';

/** The ciphersuite AvalancheGo's BLS proofs of possession use (utils/crypto/bls/signer/localsigner). */
export const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const HOST = '127.0.0.1';
const STAKING_PORT = 9651;

export interface NodeIdentity {
  nodeID: string;
  publicKey: string;
  proofOfPossession: string;
  ip: string;
}

export interface PeerRecord {
  nodeID: string;
  /** The connection's remote address (the peer's ephemeral port). */
  ip: string;
  /** The address the peer signed: its staking port. */
  publicIP: string;
  /** Nanoseconds into every second at which this node last sent to / received from the peer. */
  sentPhase: bigint;
  receivedPhase: bigint;
  /** A number from the seed for the peer's other choices (its patch release on Fuji and Mainnet). */
  draw: number;
}

const EPHEMERAL_PORTS = { first: 32768, count: 60999 - 32768 + 1 };

/** When, at Unix nanoseconds `now`, a message at `phase` into each second last went by. */
export const lastAt = (now: bigint, phase: bigint) => now - ((((now - phase) % SECOND) + SECOND) % SECOND);

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const identities = new WeakMap<World, NodeIdentity>();

/** The genesis stakers of the Primary Network, in genesis order (the world's first staker records). */
function genesisStakers(world: World): Staker[] {
  return [...world.stakers.values()].filter(
    (s) => s.subnetID === EMPTY_ID && !s.validatorTxID && world.txs.get(s.txID)?.blockID === undefined,
  );
}

export function nodeIdentity(world: World): NodeIdentity {
  let identity = identities.get(world);
  if (identity) return identity;
  const self = genesisStakers(world)[0];
  if (!self) throw new Error('the world has no genesis staker to be the node');
  let signer = self.signer;
  if (!signer) {
    // A secret key in [1, r) from the node ID (itself from the seed and the network), as a key file would hold one.
    const bls12_381 = bls12381();
    const order = bls12_381.params.r;
    const digest = createHash('sha256').update(`${world.network.name} ${self.nodeID} bls`).digest('hex');
    const secret = (BigInt(`0x${digest}`) % (order - 1n)) + 1n;
    const secretKey = Buffer.from(secret.toString(16).padStart(64, '0'), 'hex');
    const publicKey = bls12_381.getPublicKey(secretKey);
    // noble signs with any ciphersuite's DST at run time; its types only declare the default one.
    const signWith = bls12_381.sign as unknown as (m: Uint8Array, k: Uint8Array, o: { DST: string }) => Uint8Array;
    const pop = signWith(publicKey, secretKey, { DST: POP_DST });
    signer = { publicKey: hex(publicKey), proofOfPossession: hex(pop) };
  }
  identity = {
    nodeID: self.nodeID,
    publicKey: signer.publicKey,
    proofOfPossession: signer.proofOfPossession,
    ip: `${HOST}:${STAKING_PORT}`,
  };
  identities.set(world, identity);
  return identity;
}

/** The connected peers: every other current Primary Network validator that is connected, genesis stakers first. */
export function peersOf(world: World): PeerRecord[] {
  const self = nodeIdentity(world).nodeID;
  const genesis = genesisStakers(world).map((s) => s.nodeID);
  const current = new Set(validatorsOf(world, EMPTY_ID).map((v) => v.nodeID));
  const order = [...new Set([...genesis, ...[...world.stakers.values()].map((s) => s.nodeID)])];
  return order
    .filter((nodeID) => nodeID !== self && current.has(nodeID) && isConnected(world, nodeID))
    .map((nodeID, i) => {
      const digest = createHash('sha256').update(`${world.seed} ${world.network.name} ${nodeID} peer`).digest();
      return {
        nodeID,
        ip: `${HOST}:${EPHEMERAL_PORTS.first + (digest.readUInt32BE(0) % EPHEMERAL_PORTS.count)}`,
        publicIP: `${HOST}:${STAKING_PORT + 2 * (i + 1)}`,
        sentPhase: digest.readBigUInt64BE(4) % SECOND,
        receivedPhase: digest.readBigUInt64BE(12) % SECOND,
        draw: digest.readUInt32BE(20),
      };
    });
}
