/**
 * The published documents are plain standard OpenRPC: @open-rpc/generator, the reference generator, validates each
 * one with its own copy of the meta-schema and generates a TypeScript client and server from it without error.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { specFiles } from '../../generators/pipeline.ts';

type OpenRpcGenerate = (options: { openrpcDocument: object; outDir: string; components: object[] }) => Promise<void>;
const openRpcGenerate = (createRequire(import.meta.url)('@open-rpc/generator') as { default: OpenRpcGenerate }).default;

const BUNDLES = resolve(import.meta.dirname, '../../generated/openrpc');
const documents = readdirSync(BUNDLES)
  .filter((f) => f.endsWith('.json'))
  .sort();
const temp = mkdtempSync(join(tmpdir(), 'interop-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('interop with @open-rpc/generator', () => {
  it('finds one published document per endpoint document of the spec', () => {
    expect(documents).toEqual(
      specFiles('openrpc')
        .map((file) => basename(file))
        .sort(),
    );
  });

  it.each(documents)('%s generates a TypeScript client and server', async (document) => {
    const outDir = join(temp, document.replace(/\.json$/, ''));
    const errors: unknown[] = [];
    // It reports an invalid document on the console before throwing; keep that text for the failure message.
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    // Its transpiler advises against `type: [...]` (standard JSON Schema, which the spec uses for nullable fields) once
    // per such schema; that advice is kept out of the test output, any other warning is not.
    const warnings: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
    try {
      await openRpcGenerate({
        openrpcDocument: JSON.parse(readFileSync(join(BUNDLES, document), 'utf8')) as object,
        outDir,
        components: [
          { type: 'client', language: 'typescript', name: 'interop-client' },
          { type: 'server', language: 'typescript', name: 'interop-server' },
        ],
      });
    } catch (error) {
      const message = (error as { message?: unknown }).message;
      throw new Error(
        `@open-rpc/generator rejected ${document}: ${typeof message === 'string' ? message : JSON.stringify(error)}`,
      );
    } finally {
      spy.mockRestore();
      log.mockRestore();
      warn.mockRestore();
    }
    expect(errors).toEqual([]);
    expect(
      warnings
        .map((args) => JSON.stringify(args))
        .filter((text) => !text.includes('is using an array for the field type')),
    ).toEqual([]);
    expect(existsSync(join(outDir, 'client/typescript/src/index.ts'))).toBe(true);
    expect(existsSync(join(outDir, 'server/typescript/src'))).toBe(true);
  });
});
