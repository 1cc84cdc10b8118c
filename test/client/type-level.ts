/**
 * Type-level assertions about the generated client, checked by the compiler (types.test.ts compiles this file; so does
 * `npm run typecheck`). A `@ts-expect-error` whose line compiles is itself an error, so each one proves a mistake is
 * caught; `expectTypeOf` proves results carry the spec's wire types.
 */
import { expectTypeOf } from 'vitest';
import {
  AdminClient,
  type CallOptions,
  type ClientOptions,
  KeystoreClient,
  PChainClient,
  type PlatformGetBalanceResult,
  type PlatformGetCurrentValidatorsResult,
  type Uint64,
  type Uint64Param,
  XChainClient,
  XWalletClient,
  fromBigInt,
  toBigInt,
} from '../../generated/client/src/index.js';

export async function typeLevel(): Promise<void> {
  const pchain = new PChainClient();
  const xchain = new XChainClient({ blockchainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM', timeoutMs: 1000 });

  // Params: required ones must be there, with the spec's types; unknown ones are refused.
  // @ts-expect-error blockID is required
  await pchain.getBlock({});
  // @ts-expect-error txID is required: the node reads a missing one as the zero ID, which no correct client means
  await pchain.getTxStatus({});
  // @ts-expect-error height is required (the node would read 0)
  await pchain.getValidatorsAt({ subnetID: 'x' });
  await pchain.getTxStatus({ txID: 'x' });
  // @ts-expect-error blockID is a string, not a number
  await pchain.getBlock({ blockID: 42 });
  // @ts-expect-error the params object itself is required when a param is
  await pchain.getBlock();
  // @ts-expect-error no such param
  await pchain.getBlock({ blockID: 'x', blockId: 'x' });
  // @ts-expect-error encoding is one of the node's names
  await xchain.getTx({ txID: 'x', encoding: 42 });
  // @ts-expect-error a method without params takes none, only call options
  await pchain.getHeight({ subnetID: 'x' });
  // @ts-expect-error the constructor takes options, not a URL
  new PChainClient('http://127.0.0.1:9650');
  // @ts-expect-error only AVM clients take a blockchain ID
  new PChainClient({ blockchainID: 'P' });

  // Integer params take a decimal string or a bare number; all-optional params may be left out.
  await pchain.getBlockByHeight({ height: '42' });
  await pchain.getBlockByHeight({ height: 42, encoding: 'hex' });
  await pchain.getCurrentValidators();
  await pchain.getHeight({ timeoutMs: 10, signal: AbortSignal.timeout(10) });
  expectTypeOf<Uint64Param>().toEqualTypeOf<string | number>();

  // Results keep the wire form: decimal strings stay strings; lists the node may send as null say so.
  const { height } = await pchain.getHeight();
  expectTypeOf(height).toEqualTypeOf<Uint64>();
  expectTypeOf(height).toEqualTypeOf<string>();
  expectTypeOf(toBigInt(height)).toEqualTypeOf<bigint>();
  expectTypeOf(fromBigInt(1n)).toEqualTypeOf<string>();
  const balance = await pchain.getBalance({ addresses: [] });
  expectTypeOf(balance).toEqualTypeOf<PlatformGetBalanceResult>();
  expectTypeOf(balance.utxoIDs).toEqualTypeOf<Array<{ txID: string; outputIndex: number }> | null>();
  // @ts-expect-error utxoIDs may be null: it must be checked before use
  void balance.utxoIDs.length;
  const validators: PlatformGetCurrentValidatorsResult = await pchain.getCurrentValidators({ nodeIDs: ['NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD'] });
  expectTypeOf(validators.validators).toBeArray();
  const users = await new KeystoreClient().listUsers();
  expectTypeOf(users.users).toEqualTypeOf<string[]>();
  expectTypeOf(await new XWalletClient().issueTx({ tx: '0x00' })).toHaveProperty('txID');
  expectTypeOf(await new AdminClient().lockProfile()).toBeObject();

  // Options and call options are the documented shapes.
  expectTypeOf<ClientOptions>().toHaveProperty('baseUrl');
  expectTypeOf<CallOptions>().toEqualTypeOf<{ signal?: AbortSignal; timeoutMs?: number }>();
}
