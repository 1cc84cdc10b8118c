/**
 * The identity of each network the mock can simulate, as data. Every ID is AvalancheGo's own: the network IDs and
 * HRPs from utils/constants/network_ids.go; the X- and C-Chain IDs, the AVAX asset IDs and the P-Chain genesis IDs
 * from genesis/genesis_test.go (TestVMGenesis, TestAVAXAssetID, TestGenesis), which pin the hashes of the genesis
 * bytes built from genesis/genesis_{local,fuji,mainnet}.json; the local stakers and allocations from
 * genesis/genesis_local.json. VM IDs are the node's padded ASCII names (utils/constants/vm_ids.go).
 */
import { cb58Encode } from '../../generators/formats.ts';
import type { WorldConfig } from './types.ts';

export type NetworkName = 'local' | 'fuji' | 'mainnet';
export const NETWORK_NAMES: readonly NetworkName[] = ['local', 'fuji', 'mainnet'];

export interface Staker {
  nodeID: string;
  /** Bech32 address without chain prefix. */
  rewardAddress: string;
  /** Parts per million. */
  delegationFee: number;
  publicKey: string;
  proofOfPossession: string;
}

export interface Allocation {
  /** Bech32 address without chain prefix. */
  address: string;
  /** 40-hex; the AVAX genesis transaction's memo is its holders' ETH addresses. */
  ethAddr: string;
  /** AVAX on the X-Chain (nAVAX). */
  initialAmount: bigint;
  /** AVAX on the P-Chain, each with its locktime (0 = unlocked). */
  unlockSchedule: Array<{ amount: bigint; locktime: bigint }>;
}

export interface NetworkIdentity {
  name: NetworkName;
  networkID: number;
  hrp: string;
  /** `getNetworkName`'s answer. */
  networkName: string;
  xChainID: string;
  cChainID: string;
  /** The P-Chain's ID is the Primary Network's: 32 zero bytes. */
  pChainID: string;
  avaxAssetID: string;
  /** hashing.ComputeHash256Array(genesis bytes): the parent of the P-Chain's genesis block. */
  genesisID: string;
  /** genesis startTime, Unix seconds. */
  startTime: bigint;
  initialStakeDuration: bigint;
  initialStakeDurationOffset: bigint;
  /**
   * The local genesis's allocations. Fuji's and Mainnet's have thousands: their X-Chain holders are recorded in
   * ./data (the AVAX genesis transaction), their P-Chain gets synthetic stakers from the seed. Every network's AVAX
   * asset ID is checked at build time to be the hash of the genesis transaction built from its holders.
   */
  allocations: Allocation[];
  initialStakedFunds: string[];
  stakers: Staker[];
  /** genesis/genesis_<network>.go's parameters. */
  config: WorldConfig;
}

const vmID = (name: string) => {
  const bytes = new Uint8Array(32);
  bytes.set(new TextEncoder().encode(name));
  return cb58Encode(bytes);
};
export const VM_IDS = {
  platform: vmID('platformvm'),
  avm: vmID('avm'),
  evm: vmID('evm'),
  subnetEVM: vmID('subnetevm'),
} as const;
export const EMPTY_ID = cb58Encode(new Uint8Array(32));
/** secp256k1fx, nftfx, propertyfx (vms/*fx/fx.go IDs, padded ASCII). */
export const FX_IDS = [vmID('secp256k1fx'), vmID('nftfx'), vmID('propertyfx')];

/** The ewoq key every local network funds (genesis/genesis_local.go's EWOQKey). */
export const EWOQ_PRIVATE_KEY = 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN';

const LOCAL_STAKERS: Staker[] = [
  [
    'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    1000000,
    '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d',
    '0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468' +
      '043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2',
  ],
  [
    'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
    500000,
    '0xa058ff27a4c570664bfa28e34939368539a1340867951943d0f56fa8aac13bc09ff64f341acf8cc0cef74202c2d6f9c0',
    '0xac52195616344127df74d924e11701ca5e0867647ae36171d168fcf95d536e94061659b3edb924fffdb69dd5aa5cb2d7' +
      '03f8920c825c8f7b74dd0112c9c27814790bfcfa3a08e1d9358da1c54e1f6c0b4d9772432f79d7dceaa3a95c3a7e6adc',
  ],
  [
    'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
    250000,
    '0xa10b6955a85684a0f5c94b8381f04506f1bee60625927d372323f78b3d30196cc56c8618c77eaf429298e74673d832c3',
    '0x8d505f7b53960813f1e007f04702ae1bd524cce036b4695fbf8a16eb50b35cdbdd4eedec2b0ce281f35ae36e3ac29fb4' +
      '0867c94cabe2ba0b462f177dd8c3d293b0586b92d392e8278711fb434fe2601ae1b2e0867cfd128180c936a8010c5552',
  ],
  [
    'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
    125000,
    '0xaccd61ceb90c61628aa0fa34acab27ecb08f6897e9ccad283578c278c52109f9e10e4f8bc31aa6d7905c4e1623de367e',
    '0x910082e2b61fe4895b4a8f754c9e3a93c346156363acf67546a87e4bc1db7bbfa3239daa5292ad9bc30a11f60e59bbd3' +
      '0b375785b71fe45abd154d717b6471c2406df2534297305ae93d6abeb38fc461170fc0b74b8aa4550f30257a264c75b0',
  ],
  [
    'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
    62500,
    '0x8048109c3da13de0700f9f3590c3270bfc42277417f6d0cc84282947e1a1f8b4980fd3e3fe223acf0f56a5838890814a',
    '0xb034e0d0ec808b7ec456a6d88bdad7b32854794605a11139d70430d81fb93834a3f81d8969042952daff335fec510180' +
      '16a7ecb19d38597c5743a4eb3fb945ebe28a4250dd7bcb7a192c98d2fcaf15320a9bee239c66ddf61bb24f87c6e91971',
  ],
].map(([nodeID, delegationFee, publicKey, proofOfPossession]) => ({
  nodeID: nodeID as string,
  // the ewoq key's address
  rewardAddress: 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
  delegationFee: delegationFee as number,
  publicKey: publicKey as string,
  proofOfPossession: proofOfPossession as string,
}));

const LOCK_2021 = 1633824000n;
const ETH = 'b3d82b1367d362de99ab59a658165aff520cbd4d';
const AVAX = 1_000_000_000n;
const HOUR = 3600n;

function config(
  createAssetTxFee: bigint,
  validatorFee: { minPrice: bigint; excessConversionConstant: bigint },
  minValidatorStake: bigint,
  minDelegatorStake: bigint,
  minStakeDuration: bigint,
): WorldConfig {
  return {
    txFee: AVAX / 1000n,
    createAssetTxFee,
    fee: {
      weights: [1, 1000, 1000, 4],
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    },
    validatorFee: { capacity: 20_000n, target: 10_000n, ...validatorFee },
    staking: {
      minValidatorStake,
      maxValidatorStake: 3_000_000n * AVAX,
      minDelegatorStake,
      minDelegationFee: 20000,
      minStakeDuration,
      maxStakeDuration: 365n * 24n * HOUR,
      rewardConfig: {
        maxConsumptionRate: 120_000n,
        minConsumptionRate: 100_000n,
        mintingPeriod: 365n * 24n * HOUR,
        supplyCap: 720_000_000n * AVAX,
      },
    },
  };
}

export const NETWORKS: Record<NetworkName, NetworkIdentity> = {
  local: {
    name: 'local',
    networkID: 12345,
    hrp: 'local',
    networkName: 'local',
    xChainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    cChainID: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    pChainID: EMPTY_ID,
    avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    genesisID: '2nRRoR76HuEk1JjDpRdN8FKvZFvUXWxY3b9C5rZRPFjcgEh7S7',
    startTime: 1721016000n,
    initialStakeDuration: 31536000n,
    initialStakeDurationOffset: 5400n,
    allocations: [
      // staked by the genesis validators
      {
        address: 'local1g65uqn6t77p656w64023nh8nd9updzmxyymev2',
        ethAddr: ETH,
        initialAmount: 0n,
        unlockSchedule: [{ amount: 10000000000000000n, locktime: LOCK_2021 }],
      },
      // the ewoq key
      {
        address: 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        ethAddr: ETH,
        initialAmount: 300000000000000000n,
        unlockSchedule: [
          { amount: 20000000000000000n, locktime: 0n },
          { amount: 10000000000000000n, locktime: LOCK_2021 },
        ],
      },
      {
        address: 'local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu',
        ethAddr: ETH,
        initialAmount: 10000000000000000n,
        unlockSchedule: [{ amount: 10000000000000000n, locktime: LOCK_2021 }],
      },
    ],
    initialStakedFunds: ['local1g65uqn6t77p656w64023nh8nd9updzmxyymev2'],
    stakers: LOCAL_STAKERS,
    config: config(
      AVAX / 1000n,
      { minPrice: 1n, excessConversionConstant: 865_617n },
      2000n * AVAX,
      25n * AVAX,
      24n * HOUR,
    ),
  },
  fuji: {
    name: 'fuji',
    networkID: 5,
    hrp: 'fuji',
    networkName: 'fuji',
    xChainID: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainID: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    pChainID: EMPTY_ID,
    avaxAssetID: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    genesisID: 'MSj6o9TpezwsQx4Tv7SHqpVvCbJ8of1ikjsqPZ1bKRjc9zBy3',
    startTime: 1599696000n,
    initialStakeDuration: 31536000n,
    initialStakeDurationOffset: 54000n,
    allocations: [],
    initialStakedFunds: [],
    stakers: [],
    config: config(AVAX / 100n, { minPrice: 512n, excessConversionConstant: 51_937_021n }, AVAX, AVAX, 24n * HOUR),
  },
  mainnet: {
    name: 'mainnet',
    networkID: 1,
    hrp: 'avax',
    networkName: 'mainnet',
    xChainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainID: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    pChainID: EMPTY_ID,
    avaxAssetID: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    genesisID: 'UUvXi6j7QhVvgpbKM89MP5HdrxKm9CaJeHc187TsDNf8nZdLk',
    startTime: 1599696000n,
    initialStakeDuration: 7776000n,
    initialStakeDurationOffset: 5400n,
    allocations: [],
    initialStakedFunds: [],
    stakers: [],
    config: config(
      AVAX / 100n,
      { minPrice: 512n, excessConversionConstant: 1_246_488_515n },
      2000n * AVAX,
      25n * AVAX,
      14n * 24n * HOUR,
    ),
  },
};
