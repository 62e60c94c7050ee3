import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readTampaClip, TAMPA_CLIP, TAMPA_SHIFT_M, US_FT } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';

const ROOT = path.join(__dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'dem-publish-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The operator command as an operator runs it, on the local data directory (APP_MODE unset: local). */
function demLoad(...args: string[]) {
  const { APP_MODE: _mode, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir };
  return spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['bin/dem-load.ts', ...args], { cwd: ROOT, encoding: 'utf8', env });
}

describe('bin/dem-load.ts --publish: a model for every account', () => {
  it('publishes into the data directory, lists it, and every account\'s answers use it inside its extent', async () => {
    const published = demLoad(TAMPA_CLIP, '--id', 'tampa-lidar-clip', '--name', 'Tampa clip (operator)', '--units', 'ft', '--vertical-datum', 'NGVD29',
      `--ngvd29-to-navd88-m=${TAMPA_SHIFT_M}`, '--vertical-accuracy-m', '0.3', '--water-value', '0', '--publish');
    expect(published.stderr).toBe('');
    expect(published.status).toBe(0);
    expect(published.stdout).toMatch(/^tampa-lidar-clip: .*published for every account/m);
    // Publishing again with the same id replaces the model: still one entry.
    expect(demLoad(TAMPA_CLIP, '--id', 'tampa-lidar-clip', '--name', 'Tampa clip (operator)', '--units', 'ft', '--vertical-datum', 'NGVD29',
      `--ngvd29-to-navd88-m=${TAMPA_SHIFT_M}`, '--vertical-accuracy-m', '0.3', '--water-value', '0', '--publish').status).toBe(0);
    const listed = demLoad('--list');
    expect(listed.status).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(1);
    expect(listed.stdout).toMatch(/^tampa-lidar-clip\t30\.\d+ m\t/);

    const clip = await readTampaClip();
    const app = await startTestApp({ dataDir, backgroundWorkers: false });
    try {
      const [lon, lat] = clip.lonLatOf(clip.height / 2 + 0.3, clip.width / 2 + 0.6);
      for (const key of [app.keys.pro, app.keys.enterprise]) {
        const res = await app.request('POST', '/hazards/slr-impact', { key, json: { lat, lon, scenario: 'intermediate', planning_horizon: 2070, radius_km: 0.2 } });
        expect(res.status).toBe(200);
        expect(res.json.elevation.source).toMatchObject({ elevation_model_id: 'tampa-lidar-clip', name: 'Tampa clip (operator)', vertical_accuracy_m: 0.3, surface_model: false });
        const expected = clip.feetAt(lon, lat)! * US_FT + TAMPA_SHIFT_M;
        expect(Math.abs(res.json.ground_elevation_navd88.m - expected)).toBeLessThan(0.05);
      }
    } finally {
      await app.stop();
    }

    expect(demLoad('--remove', 'tampa-lidar-clip').status).toBe(0);
    expect(demLoad('--list').stdout.trim()).toBe('No published elevation model.');
    const again = demLoad('--remove', 'tampa-lidar-clip');
    expect([again.status, again.stderr.trim()]).toEqual([2, 'No published elevation model tampa-lidar-clip.']);
  });
});
