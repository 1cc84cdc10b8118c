/**
 * Typed errors from the spec, against the mock node on 127.0.0.1: a JsonRpcError keeps the node's own message, code
 * and data, and is named after the method's documented error it is (`is`, `failed`); an error the spec does not list
 * stays unnamed. `call()` reaches methods outside the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcError, KeystoreClient, PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { startNodeStub } from './node-stub.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';

let node: RunningMockNode;
// The Keystore is served up to v1.12.1, so the mock serves every release's methods here.
beforeAll(async () => (node = await startMockNode({ port: 0, nodeVersion: 'all', log: () => undefined })));
afterAll(() => node.close());

const caught = async (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );

describe('typed errors', () => {
  it('names the documented error, keeping the node’s own message, code and data', async () => {
    const keystore = new KeystoreClient({ baseUrl: node.url });
    const user = { username: `user-${process.pid}`, password: 'a long, odd passphrase 8^/' };
    await keystore.createUser(user);
    const error = await caught(keystore.createUser(user));
    expect(error).toBeInstanceOf(JsonRpcError);
    const rpc = error as JsonRpcError;
    expect(rpc.message).toBe(`user already exists: ${user.username}`);
    expect(rpc).toMatchObject({
      code: -32000,
      data: null,
      method: 'keystore.createUser',
      documented: 'KeystoreUserAlreadyExists',
    });
    expect(rpc.is('KeystoreUserAlreadyExists')).toBe(true);
    expect(rpc.is('KeystorePasswordTooWeak')).toBe(false);
    expect(keystore.failed(error, 'createUser', 'KeystoreUserAlreadyExists')).toBe(true);
    expect(keystore.failed(error, 'createUser', 'KeystorePasswordTooWeak')).toBe(false);
    // The same name on another method is another error.
    expect(keystore.failed(error, 'importUser', 'KeystoreUserAlreadyExists')).toBe(false);

    const weak = await caught(keystore.createUser({ username: `weak-${process.pid}`, password: 'password' }));
    expect((weak as JsonRpcError).message).toBe('password is too weak');
    expect(keystore.failed(weak, 'createUser', 'KeystorePasswordTooWeak')).toBe(true);
  });

  it('names errors written in place in the spec by their message, and leaves undocumented ones unnamed', async () => {
    const pchain = new PChainClient({ baseUrl: node.url });
    const error = await caught(pchain.call('platform.getTx', { txID: 42 }));
    // call() carries no table: nothing is named, but the node's answer is all there.
    expect(error).toMatchObject({ name: 'JsonRpcError', code: -32000, documented: undefined });
    expect((error as JsonRpcError).message).toBe(INVALID_ARGUMENT);
    const decode = await caught(pchain.getTx({ txID: 42 as unknown as string }));
    expect((decode as JsonRpcError).documented).toBe('InvalidArgument');
    expect(pchain.failed(decode, 'getTx', 'InvalidArgument')).toBe(true);
    // An error written in place (no components.errors key) is named by its message; a variable part may differ.
    const stub = await startNodeStub();
    try {
      const message = "couldn't get block with id 2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm: not found";
      stub.respond((request, response) => {
        const { id } = JSON.parse(request.body) as { id: number };
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id }));
      });
      const stubbed = new PChainClient({ baseUrl: stub.url });
      const notFound = await caught(
        stubbed.getBlock({ blockID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm' }),
      );
      expect(notFound).toMatchObject({ message, documented: 'CouldntGetBlockWithIdNotFound' });
      expect(stubbed.failed(notFound, 'getBlock', 'CouldntGetBlockWithIdNotFound')).toBe(true);
      // The same text from a method that does not document it is not named.
      const other = await caught(stubbed.getHeight());
      expect((other as JsonRpcError).documented).toBeUndefined();
      expect(stubbed.failed(other, 'getHeight', 'InvalidArgument')).toBe(false);
    } finally {
      await stub.close();
    }
  });

  it('names an error whose message ends in the variable part: the alias the node did not find', async () => {
    // The spec writes it for alias `Q`; any other alias is the same error.
    const xchain = new XChainClient({ baseUrl: node.url });
    const error = await caught(
      xchain.getUTXOs({ addresses: ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'], sourceChain: 'Zed' }),
    );
    expect(error).toMatchObject({
      message: 'problem parsing source chainID "Zed": there is no ID with alias: Zed',
      documented: 'SourceChainUnknown',
    });
    expect(xchain.failed(error, 'getUTXOs', 'SourceChainUnknown')).toBe(true);
  });
});

describe('call()', () => {
  it('calls any method by its wire name and returns the result untyped', async () => {
    const pchain = new PChainClient({ baseUrl: node.url });
    const height = await pchain.call('platform.getHeight');
    expect(height).toEqual(await pchain.getHeight());
    const unknown = await caught(pchain.call('platform.noSuchMethod', {}));
    expect(unknown).toMatchObject({ name: 'JsonRpcError', code: -32000, documented: undefined });
    expect((unknown as JsonRpcError).message).toMatch(/can't find method/);
  });
});
