import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type Change, diffSpecs } from '../../diff/compare.ts';
import { loadRevision } from '../../diff/load.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/diff');
const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const brief = (changes: Change[]) =>
  changes.map(({ rule, method, pointer, clients, implementers }) => ({ rule, method, pointer, clients, implementers }));

describe('a fixture pair per kind of change', () => {
  for (const kind of readdirSync(FIXTURES).sort()) {
    it(kind, () => {
      const dir = join(FIXTURES, kind);
      const changes = diffSpecs(
        { model: loadRevision(join(dir, 'old.json')) },
        { model: loadRevision(join(dir, 'new.json')) },
      );
      expect(brief(changes)).toEqual(JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')));
    });
  }

  it('finds nothing between a spec and itself', () => {
    const model = loadRevision(join(FIXTURES, 'method-added/old.json'));
    expect(diffSpecs({ model }, { model })).toEqual([]);
  });
});

describe('the releases of this spec', () => {
  const model = loadRevision(join(ROOT, 'openrpc'));
  const between = (from: string, to: string) => diffSpecs({ model, version: from }, { model, version: to });
  const summary = (changes: Change[]) => [...new Set(changes.map((c) => `${c.method} ${c.rule}`))].sort();

  it('v1.12.1 -> v1.14.2 is what the wire notes list', () => {
    // The Info changes are the node's own (info.getTxFee deprecated in v1.12.2, peers' upgradeTime since v1.14.1, the
    // upgrades after Etna); the mock-only dev methods never count. platform.getAllValidatorsAt and proposervm's API
    // arrived in v1.14.0; coreth v0.16.0 (v1.14.0) dropped avax.version.
    expect(summary(between('v1.12.1', 'v1.14.2'))).toEqual([
      'avax.version method-removed',
      'avm.getAddressTxs method-removed',
      'avm.getTxFee method-added',
      'info.getTxFee method-deprecated',
      'info.peers result-property-added',
      'info.upgrades result-property-added',
      'keystore.createUser method-removed',
      'keystore.deleteUser method-removed',
      'keystore.exportUser method-removed',
      'keystore.importUser method-removed',
      'keystore.listUsers method-removed',
      'platform.getAllValidatorsAt method-added',
      'platform.getCurrentValidators result-alternative-added',
      'platform.getCurrentValidators result-property-removed',
      'platform.getL1Validator result-property-added',
      'platform.getValidatorFeeConfig method-added',
      'platform.getValidatorFeeState method-added',
      'proposervm.getCurrentEpoch method-added',
      'proposervm.getProposedHeight method-added',
    ]);
    const removed = between('v1.12.1', 'v1.14.2')
      .filter((c) => c.rule === 'result-property-removed')
      .map((c) => c.pointer.split('/').at(-1));
    expect(new Set(removed)).toEqual(new Set(['stakeAmount', 'rewardOwner']));
  });

  it("v1.14.2 -> v1.15.0-fuji (Helicon's auto-renewed staking, ACP-236) adds fields, no method", () => {
    expect(summary(between('v1.14.2', 'v1.15.0-fuji'))).toEqual([
      'platform.getBlock result-property-added',
      'platform.getBlockByHeight result-property-added',
      'platform.getCurrentValidators result-property-added',
      'platform.getTx result-property-added',
    ]);
    const added = between('v1.14.2', 'v1.15.0-fuji')
      .filter((c) => c.method === 'platform.getCurrentValidators')
      .map((c) => c.pointer.split('/').at(-1));
    expect(new Set(added)).toEqual(new Set(['validatorAuthority', 'nextPeriod', 'autoCompoundRewardShares']));
  });

  it('each change inside a method shows up between the releases on either side of it', () => {
    expect(summary(between('v1.10.5', 'v1.10.6'))).toEqual([
      'platform.getValidatorsAt result-map-opened',
      'platform.getValidatorsAt result-property-removed',
    ]);
    expect(summary(between('v1.10.15', 'v1.10.16'))).toEqual(['admin.setLoggerLevel result-property-added']);
    expect(summary(between('v1.11.12', 'v1.11.13'))).toEqual(
      expect.arrayContaining([
        'platform.getSubnet result-property-added',
        'platform.getValidatorsAt param-alternative-added',
        'platform.getL1Validator method-added',
      ]),
    );
    expect(summary(between('v1.9.11', 'v1.9.12'))).toEqual(
      expect.arrayContaining(['avm.getTxStatus result-value-removed']),
    );
    expect(summary(between('v1.10.0', 'v1.10.1'))).toEqual(
      expect.arrayContaining([
        'platform.getStake param-added',
        'platform.getTx result-property-added',
        'platform.getBlock result-property-added',
      ]),
    );
    expect(summary(between('v1.9.7', 'v1.9.8'))).toEqual(
      expect.arrayContaining([
        'platform.getBalance param-removed',
        'platform.getCurrentValidators result-property-added',
      ]),
    );
  });
});

describe('npm run diff', () => {
  const cli = (...args: string[]) =>
    run(process.execPath, ['diff/cli.ts', ...args], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('exits 1 on a breaking change, with text and JSON reports', async () => {
    const dir = join(FIXTURES, 'param-added-required');
    const text = await cli(join(dir, 'old.json'), join(dir, 'new.json'));
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/clients: breaking +implementers: possibly-breaking +param "extra" added \(required\)/);
    const json = await cli('--format', 'json', join(dir, 'old.json'), join(dir, 'new.json'));
    expect(JSON.parse(json.stdout).summary.clients.breaking).toBe(1);
  });

  it('exits 0 when nothing breaks the audience asked about', async () => {
    const dir = join(FIXTURES, 'method-added');
    expect((await cli(join(dir, 'old.json'), join(dir, 'new.json'), '--fail-on', 'clients')).code).toBe(0);
    expect((await cli(join(dir, 'old.json'), join(dir, 'new.json'))).code).toBe(1);
  });

  it('compares two releases and refuses bad usage', async () => {
    const releases = await cli('--from', 'v1.12.1', '--to', 'v1.14.2');
    expect(releases.stdout).toMatch(/keystore\.listUsers \(keystore\)\n {2}clients: breaking/);
    expect((await cli('--from', 'v1.12')).code).toBe(2);
    expect((await cli('only-one.json')).code).toBe(2);
    const unnamed = await cli('--from', 'v1.12.1', '--to', 'v9.9.9');
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('the spec describes releases up to v1.15.0-fuji; it says nothing of v9.9.9');
    const missing = await cli('--from', 'v1.13.99', '--to', 'v1.14.2');
    expect([missing.code, missing.stdout]).toEqual([2, '']);
    expect(missing.stderr).toMatch(/^diff: the spec names no release v1\.13\.99; it names v1\.9\.0, .*v1\.14\.2/);
    expect((await cli('--to', 'v1.14.2')).stderr).toContain('--to needs --from');
    expect((await cli('--from', 'v1.14.2')).stderr).toContain('--from needs --to');
  });

  it('exits 0 on a change that breaks no one, and names the flag of a malformed or undescribed release', async () => {
    const dir = join(FIXTURES, 'method-deprecated');
    const deprecated = await cli(join(dir, 'old.json'), join(dir, 'new.json'));
    expect(deprecated.code).toBe(0);
    expect(deprecated.stdout).toContain('\n1 change. Clients: 0 breaking');
    const malformed = await cli('--from', 'v1.12.1', '--to', '1.14.2');
    expect([malformed.code, malformed.stderr.split('\n')[0]]).toEqual([
      2,
      'diff: --to must look like v1.12.1, not "1.14.2"',
    ]);
    // The spec names no release before v1.9.0: "No changes" there would be a guess.
    const early = await cli('--from', 'v1.8.0', '--to', 'v1.9.8');
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('the spec describes releases from v1.9.0; it says nothing of v1.8.0');
  });

  it("floors another spec's releases at the oldest it names, not at this spec's v1.9.0", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'diff-spec-'));
    try {
      const method = (name: string, since: string) => ({
        name,
        params: [],
        result: { name: 'r', schema: { type: 'string' } },
        'x-node-versions': { since },
      });
      const doc = {
        openrpc: '1.3.2',
        info: { title: 'Demo', version: '0.6.0' },
        methods: [method('demo.old', 'v0.3.0'), method('demo.new', 'v0.5.0')],
      };
      writeFileSync(join(dir, 'demo.json'), JSON.stringify(doc));
      const early = await cli('--spec', dir, '--from', 'v0.3.0', '--to', 'v0.5.0');
      expect(early.stdout).toMatch(/demo\.new \(demo\)\n.*method added/);
      const before = await cli('--spec', dir, '--from', 'v0.2.0', '--to', 'v0.5.0');
      expect(before.code).toBe(2);
      expect(before.stderr).toContain('the spec describes releases from v0.3.0; it says nothing of v0.2.0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compares up to a pre-release the spec names, and no further', async () => {
    // ACP-236's fields arrive in v1.15.0-fuji; v1.15.0 itself is past what the spec describes.
    const fuji = await cli('--from', 'v1.14.2', '--to', 'v1.15.0-fuji');
    expect(fuji.stdout).toMatch(/platform\.getCurrentValidators \(p-chain\)/);
    expect((await cli('--from', 'v1.14.2', '--to', 'v1.15.0')).stderr).toContain('it says nothing of v1.15.0');
  });
});
