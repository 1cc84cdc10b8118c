/**
 * The Keystore API with the node's rules (api/keystore at v1.12.1): user names and passwords of 1 to 1024 bytes,
 * passwords scored by zxcvbn (at least 2 over the first 50 bytes, at a bounded cost: password.ts), each user
 * exported as its codec record
 * (version 0, password hash, salt, data). The mock hashes with scrypt where the node uses argon2id, so it cannot check
 * a password against a record a real node exported; the records of the spec's examples are accepted with the
 * example's password. Passwords are never logged and never part of an error.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { goQuote } from '../generated/server/dist/runtime/encode.js';
import { passwordScore } from './password.ts';
import { mockModel } from './spec.ts';
import { decodeBytes, encodeBytes } from './shared/formatting.ts';
import type { Encoding } from './world/types.ts';

/** The spec's `maxLength`s, which the node counts in UTF-8 bytes. */
const MAX_USERNAME = mockModel().schemas.KeystoreUsername!.maxLength as number;
const MAX_PASSWORD = mockModel().schemas.KeystorePassword!.maxLength as number;
const HASH_LENGTH = 32;
const SALT_LENGTH = 16;

/** A user record a real node exported, with the password it was exported under (from the spec's examples). */
export interface KnownRecord {
  record: Uint8Array;
  password: string;
}

interface Credentials {
  username?: string;
  password?: string;
}

function checkUsername(username: string): void {
  if (username === '') throw new Error('empty username');
  if (Buffer.byteLength(username) > MAX_USERNAME)
    throw new Error(`username exceeds maximum length of ${MAX_USERNAME} chars`);
}

function hashOf(password: string, salt: Uint8Array): Buffer {
  return scryptSync(password, salt, HASH_LENGTH, { N: 1024 });
}

/** A record no password matches, checked in place of a user that does not exist. */
const UNKNOWN_USER = Buffer.concat([Buffer.alloc(2 + HASH_LENGTH), randomBytes(SALT_LENGTH)]);

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export class Keystore {
  private readonly users = new Map<string, Uint8Array>();

  private readonly known: KnownRecord[];
  constructor(known: KnownRecord[] = []) {
    this.known = known;
  }

  private passwordMatches(record: Uint8Array, password: string): boolean {
    if (this.known.some((k) => equalBytes(k.record, record) && k.password === password)) return true;
    if (record.length < 2 + HASH_LENGTH + SALT_LENGTH) return false;
    const hash = record.subarray(2, 2 + HASH_LENGTH);
    const salt = record.subarray(2 + HASH_LENGTH, 2 + HASH_LENGTH + SALT_LENGTH);
    return equalBytes(hash, hashOf(password, salt));
  }

  /** Why createUser would refuse, without creating: the `check*` methods change nothing. */
  checkCreate({ username = '', password = '' }: Credentials): void {
    checkUsername(username);
    if (this.users.has(username)) throw new Error(`user already exists: ${username}`);
    if (password === '') throw new Error('empty password');
    if (Buffer.byteLength(password) > MAX_PASSWORD)
      throw new Error(`password exceeds maximum length of ${MAX_PASSWORD} chars`);
    if (passwordScore(password) < 2) throw new Error('password is too weak');
  }

  createUser(credentials: Credentials): Record<string, never> {
    this.checkCreate(credentials);
    const salt = randomBytes(SALT_LENGTH);
    this.users.set(
      credentials.username!,
      Buffer.concat([Buffer.alloc(2), hashOf(credentials.password!, salt), salt, Buffer.alloc(4)]),
    );
    return {};
  }

  checkDelete({ username = '', password = '' }: Credentials): void {
    checkUsername(username);
    const record = this.users.get(username);
    if (!record) throw new Error(`user doesn't exist: ${username}`);
    if (!this.passwordMatches(record, password)) throw new Error(`incorrect password: user ${goQuote(username)}`);
  }

  deleteUser(credentials: Credentials): Record<string, never> {
    this.checkDelete(credentials);
    this.users.delete(credentials.username!);
    return {};
  }

  exportUser({ username = '', password = '', encoding = 'hex' }: Credentials & { encoding?: string }): {
    user: string;
    encoding: Exclude<Encoding, 'json'>;
  } {
    checkUsername(username);
    const record = this.users.get(username);
    // The node answers an unknown user as a wrong password; hashing either way keeps the two indistinguishable in time.
    const matches = this.passwordMatches(record ?? UNKNOWN_USER, password);
    if (!record || !matches) throw new Error(`incorrect password: user ${goQuote(username)}`);
    const lower = encoding.toLowerCase() as Exclude<Encoding, 'json'>;
    try {
      return { user: encodeBytes(record, lower), encoding: lower };
    } catch (error) {
      throw new Error(`couldn't encode user to string: ${(error as Error).message}`);
    }
  }

  /** The record importUser would store, without storing it. */
  checkImport({
    username = '',
    password = '',
    user = '',
    encoding = 'hex',
  }: Credentials & { user?: string; encoding?: string }): Uint8Array {
    let record: Uint8Array;
    try {
      record = decodeBytes(user, encoding.toLowerCase());
    } catch (error) {
      throw new Error(`couldn't decode 'user' to bytes: ${(error as Error).message}`);
    }
    checkUsername(username);
    if (this.users.has(username)) throw new Error(`user already exists: ${username}`);
    if (record.length < 2) throw new Error("couldn't unpack codec version");
    if (record[0] !== 0 || record[1] !== 0) throw new Error('unknown codec version');
    if (!this.passwordMatches(record, password)) throw new Error(`incorrect password: user ${goQuote(username)}`);
    return Uint8Array.from(record);
  }

  importUser(params: Credentials & { user?: string; encoding?: string }): Record<string, never> {
    const record = this.checkImport(params);
    this.users.set(params.username!, record);
    return {};
  }

  listUsers(): { users: string[] } {
    return { users: [...this.users.keys()].sort() };
  }
}
