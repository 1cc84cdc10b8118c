/**
 * Type-level assertions about the generated client, checked by the compiler (types.test.ts compiles this file; so does
 * `npm run typecheck`). A `@ts-expect-error` whose line compiles is itself an error, so each one proves a mistake is
 * caught; `expectTypeOf` proves results carry the spec's wire types.
 */
import { expectTypeOf } from 'vitest';
import {
  AdminClient,
  type AvmTx,
  type CallOptions,
  type ClientOptions,
  type EncodedBytes,
  type Hex,
  type HexNoChecksum,
  JsonRpcError,
  type KeystoreClientErrors,
  KeystoreClient,
  PChainClient,
  type PlatformGetBalanceResult,
  type PlatformGetCurrentValidatorsResult,
  type PlatformTx,
  type Uint64,
  type Uint64Param,
  XChainClient,
  XWalletClient,
  fromBigInt,
  toBigInt,
} from '../../generated/client/src/index.js';

export async function typeLevel(): Promise<void> {
  const pchain = new PChainClient();
  const xchain = new XChainClient({
    blockchainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    timeoutMs: 1000,
  });

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
  const validators: PlatformGetCurrentValidatorsResult = await pchain.getCurrentValidators({
    nodeIDs: ['NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD'],
  });
  expectTypeOf(validators.validators).toBeArray();
  const users = await new KeystoreClient().listUsers();
  expectTypeOf(users.users).toEqualTypeOf<string[]>();
  expectTypeOf(await new XWalletClient().issueTx({ tx: '0x00' })).toHaveProperty('txID');
  expectTypeOf(await new AdminClient().lockProfile()).toBeObject();

  // Params given by a pattern of a few words take those words, in the node's spelling.
  // @ts-expect-error base64 is not an encoding of the node
  await xchain.getTx({ txID: 'x', encoding: 'base64' });
  // @ts-expect-error a log level is one of the node's names
  await new AdminClient().setLoggerLevel({ logLevel: 'loud' });
  await new AdminClient().setLoggerLevel({ logLevel: 'debug', displayLevel: 'off' });

  // Results narrowed by the encoding sent, where the spec's result schema says so.
  expectTypeOf((await xchain.getTx({ txID: 'x', encoding: 'json' })).tx).toEqualTypeOf<AvmTx>();
  expectTypeOf((await xchain.getTx({ txID: 'x', encoding: 'hexc' })).tx).toEqualTypeOf<EncodedBytes>();
  expectTypeOf((await xchain.getTx({ txID: 'x' })).tx).toEqualTypeOf<EncodedBytes>();
  expectTypeOf((await pchain.getTx({ txID: 'x', encoding: 'json' })).tx).toEqualTypeOf<PlatformTx>();
  expectTypeOf(
    (await pchain.getBlockByHeight({ height: 1, encoding: 'json' })).block,
  ).not.toEqualTypeOf<EncodedBytes>();
  expectTypeOf(
    (await new KeystoreClient().exportUser({ username: 'u', password: 'p', encoding: 'hexnc' })).user,
  ).toEqualTypeOf<HexNoChecksum>();
  expectTypeOf((await new KeystoreClient().exportUser({ username: 'u', password: 'p' })).user).toEqualTypeOf<Hex>();
  const chosen = 'json' as 'hex' | 'json';
  expectTypeOf((await xchain.getTx({ txID: 'x', encoding: chosen })).tx).toEqualTypeOf<EncodedBytes | AvmTx>();

  // Documented errors, per method, checked at compile time; call() reaches anything, untyped.
  const keystore = new KeystoreClient();
  const failure: unknown = new Error('x');
  if (keystore.failed(failure, 'createUser', 'KeystoreUserAlreadyExists')) {
    expectTypeOf(failure.documented).toEqualTypeOf<KeystoreClientErrors['createUser'] | undefined>();
    expectTypeOf(failure.code).toEqualTypeOf<number>();
  }
  // @ts-expect-error listUsers does not document that error
  keystore.failed(failure, 'listUsers', 'KeystoreUserAlreadyExists');
  // @ts-expect-error no such method
  keystore.failed(failure, 'createUsers', 'InvalidArgument');
  if (failure instanceof JsonRpcError) expectTypeOf(failure.is('KeystoreUserAlreadyExists')).toEqualTypeOf<boolean>();
  expectTypeOf(await pchain.call('platform.getProposedHeight', {})).toEqualTypeOf<unknown>();

  // Options and call options are the documented shapes.
  expectTypeOf<ClientOptions>().toHaveProperty('baseUrl');
  expectTypeOf<CallOptions>().toEqualTypeOf<{ signal?: AbortSignal; timeoutMs?: number }>();
}
