import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { startTestApp } from '../helpers/local-app';
import { registerAndLogin } from '../helpers/v1-user';
import { launchChromium } from './chromium';

/** The screenshots shown in the README are rewritten only on request (`UPDATE_SCREENSHOTS=1`); otherwise they go to a scratch folder, so a test run leaves the tree as it found it. */
const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs') : mkdtempSync(path.join(tmpdir(), 'vac-console-'));
const SCREENSHOT_LIMIT_BYTES = 300 * 1024;

/**
 * Four Monroe County hospitals and schools of the worked example's file, and one Miami-Dade hospital
 * that lies outside the county: the import must reject exactly that row, as `outside_jurisdiction`.
 */
function inventoryWithOneOutsideRow(): { csv: string; outsideRow: number } {
  const lines = readFileSync(path.resolve(__dirname, '../fixtures/deliverables/monroe-critical-assets.csv'), 'utf8').trim().split('\n');
  const [header, ...rows] = lines;
  const monroe = rows.filter((row) => row.includes(',MONROE,')).slice(0, 4);
  const outside = rows.find((row) => row.includes(',MIAMI-DADE,'))!;
  // Row numbers count the header as row 1.
  return { csv: [header, ...monroe, outside].join('\n') + '\n', outsideRow: monroe.length + 2 };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOT_DIR, `console-${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  expect(statSync(file).size).toBeLessThan(SCREENSHOT_LIMIT_BYTES);
}

/** The analyst's path in the console, in a real (headless) browser against the local API. */
describe('console in a headless browser', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startTestApp({ backgroundWorkers: true });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('signs in with a key or a /v1 account, imports a file with a rejected row, runs an analysis, lists and maps the assets, downloads the PDF', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    const hosts = new Set<string>();
    const consoleErrors: string[] = [];
    page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const response = await page.goto(`${app.baseUrl}/console`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);

    // A refused key shows the API's problem in words, and nothing opens.
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#problem code[data-code]').textContent()).resolves.toBe('invalid_api_key');
    const refused = await app.request('GET', '/account/usage', { key: 'not-a-key' });
    await expect(page.locator('#problem h2').textContent()).resolves.toBe(refused.json.title);
    await expect(page.locator('#problem p').first().textContent()).resolves.toBe(refused.json.detail);
    expect(await page.locator('#signed-in').isHidden()).toBe(true);
    // The browser logs the refused request itself; from here on nothing may fail unless the test says so.
    expect(consoleErrors).toEqual([expect.stringContaining('403')]);
    consoleErrors.length = 0;

    // A newly registered /v1 user: a wrong password is the API's problem in words; the right one lists the account's keys (none yet).
    const newcomer = await registerAndLogin(app.request, { name: 'County Analyst', role: 'staff' });
    const newcomerProfile = await app.request('GET', '/v1/users/profile', { headers: newcomer.headers });
    await page.getByLabel('E-mail').fill(newcomer.email);
    await page.getByLabel('Password').fill(`${newcomer.password}x`);
    await page.getByRole('button', { name: 'Sign in with the account' }).click();
    await expect(page.locator('#problem code[data-code]').textContent()).resolves.toBe('invalid_credentials');
    expect(consoleErrors).toEqual([expect.stringContaining('401')]);
    consoleErrors.length = 0;
    await page.getByLabel('Password').fill(newcomer.password);
    await page.getByRole('button', { name: 'Sign in with the account' }).click();
    await page.locator('#account:not([hidden])').waitFor();
    await expect(page.locator('#account-status').textContent()).resolves.toBe(`${newcomer.email}: account ${newcomerProfile.json.account_id}, free tier, 0 active keys.`);
    expect(await page.locator('#use-key-form').isHidden()).toBe(true);

    // A key created in the console is used at once and shown this once; it is Free, and the console says what that means.
    await page.getByRole('button', { name: 'Create a key and use it' }).click();
    await page.locator('#signed-in:not([hidden])').waitFor();
    const createdKey = await page.getByLabel(/Your new key/).inputValue();
    expect(createdKey).toMatch(/^vac_/);
    expect(await page.evaluate("sessionStorage.getItem('vac-console-api-key')")).toBe(createdKey);
    expect((await app.request('GET', '/v1/keys', { headers: newcomer.headers })).json.data.map((key: { name: string }) => key.name)).toEqual(['Console']);
    await expect(page.locator('#session-status').textContent()).resolves.toBe('Signed in: free tier.');
    await expect(page.locator('#tier-notice').textContent()).resolves.toContain(`--account ${newcomerProfile.json.account_id} --tier pro`);
    // The notice is true: the first step is refused with the problem it names.
    await page.getByLabel('2. Jurisdiction').selectOption('Monroe County');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.locator('#problem code[data-code]').textContent()).resolves.toBe('subscription_required');
    expect(consoleErrors).toEqual([expect.stringContaining('403')]);
    consoleErrors.length = 0;
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.locator('#account-sign-in:not([hidden])').waitFor();
    expect(await page.locator('#account').isHidden()).toBe(true);
    expect(await page.evaluate("sessionStorage.getItem('vac-console-api-key')")).toBeNull();
    // Signing out ended the console's /v1 session (newest event first), as POST /v1/users/logout records it.
    const activity = await app.request('GET', '/v1/users/activity', { headers: newcomer.headers });
    expect(activity.json.data.map((event: { type: string }) => event.type).slice(0, 3)).toEqual(['sign_out', 'key_created', 'sign_in']);

    // A /v1 user whose account an operator moved to Pro picks the key made earlier (its value, once mistyped) and works with it.
    const analyst = await registerAndLogin(app.request, { name: 'Monroe Analyst', role: 'staff' });
    const workstationKey = (await app.request('POST', '/v1/keys', { headers: analyst.headers, json: { name: 'GIS workstation' } })).json;
    const analystProfile = await app.request('GET', '/v1/users/profile', { headers: analyst.headers });
    expect(await new DynamoAccountStore().setTier(analystProfile.json.account_id, 'pro')).toBe(true);
    await page.getByLabel('E-mail').fill(analyst.email);
    await page.getByLabel('Password').fill(analyst.password);
    await page.getByRole('button', { name: 'Sign in with the account' }).click();
    await page.locator('#account:not([hidden])').waitFor();
    await expect(page.locator('#account-status').textContent()).resolves.toContain('pro tier, 1 active key.');
    await expect(page.getByLabel('Key', { exact: true }).locator('option').textContent()).resolves.toMatch(new RegExp(`^GIS workstation \\(${workstationKey.prefix}…, created \\d{4}-\\d\\d-\\d\\d, never used\\)$`));
    await page.getByLabel('Its value').fill(`x${workstationKey.key}`);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect(page.locator('#problem').textContent()).resolves.toContain(`does not start with ${workstationKey.prefix}`);
    await page.getByLabel('Its value').fill(workstationKey.key);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#signed-in:not([hidden])').waitFor();
    expect(await page.locator('#problem').isHidden()).toBe(true);
    expect(await page.locator('#tier-notice').isHidden()).toBe(true);
    await expect(page.locator('#session-status').textContent()).resolves.toBe('Signed in: pro tier.');
    expect(await page.evaluate("sessionStorage.getItem('vac-console-api-key')")).toBe(workstationKey.key);

    await page.getByLabel('2. Jurisdiction').selectOption('Monroe County');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.locator('#map[data-outline="drawn"]').waitFor();
    await expect(page.locator('#jurisdiction-status').textContent()).resolves.toContain('Monroe County');
    await screenshot(page, 'jurisdiction');

    const { csv, outsideRow } = inventoryWithOneOutsideRow();
    await page.getByLabel('Asset file (CSV)').setInputFiles({ name: 'monroe-assets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.locator('#import-report table').waitFor();
    await expect(page.locator('#import-status').textContent()).resolves.toBe('4 rows accepted, 1 rejected.');
    const rejected = page.locator('#import-report tbody tr[data-outcome="rejected"]');
    expect(await rejected.count()).toBe(1);
    expect(await rejected.getAttribute('data-row')).toBe(String(outsideRow));
    await expect(rejected.textContent()).resolves.toContain('outside_jurisdiction');
    await expect(rejected.textContent()).resolves.toContain('outside Monroe County');
    await expect(page.locator('#map').getAttribute('data-asset-features')).resolves.toBe('4');
    await screenshot(page, 'import');

    await page.getByLabel(/surface model/).check();
    // A design storm for the rainfall and compound components (the depth of the API's own example, NOAA Atlas 14 in the Keys).
    await page.getByLabel('Rain depth (inches)').fill('13');
    await page.getByLabel('Source of the depth').fill('NOAA Atlas 14 Volume 9, PFDS 100-year 24-hour at Key West');
    await page.getByRole('button', { name: 'Run the analysis on the assets' }).click();
    await page.locator('#deliverables:not([hidden])').waitFor({ timeout: 120_000 });
    const rows = page.locator('#asset-table tbody tr');
    expect(await rows.count()).toBe(4);
    // Every asset was analysed: none is left in the grey "not analysed" class on the map.
    const counts = JSON.parse((await page.locator('#map').getAttribute('data-exposure-counts'))!) as Record<string, number>;
    expect(counts.not_analysed).toBe(0);
    expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(await page.locator('#asset-table tbody td').allTextContents()).not.toContain('not_analysed');

    // Sorting by name orders the rows alphabetically; choosing a row selects its feature on the map.
    await page.locator('th button[data-sort="name"]').click();
    const names = await page.locator('#asset-table tbody tr button[data-asset]').allTextContents();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const first = page.locator('#asset-table tbody tr button[data-asset]').first();
    await first.click();
    await expect(page.locator('#map').getAttribute('data-selected-asset')).resolves.toBe(await first.getAttribute('data-asset'));

    // The slider walks the scenario × horizon extents of the analysis (the API's defaults: 2 scenarios × 2 horizons).
    const slider = page.getByLabel('Flood extent: scenario and horizon');
    await expect(slider.getAttribute('max')).resolves.toBe('3');
    const firstExtent = await page.locator('#map').getAttribute('data-extent');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    const secondExtent = await page.locator('#map').getAttribute('data-extent');
    expect(secondExtent).not.toBe(firstExtent);
    expect(await page.locator('#extent-legend li').textContent()).toBe(secondExtent);

    // Each component's own extent at that step, by the selector, with its area in the legend; the
    // Keys' low land is wet under at least one of them.
    const component = page.getByLabel('Flood extent: component');
    const [scenario, horizon] = (await page.locator('#extent-label').textContent())!.split(', ');
    const drawn: Record<string, { legend: string; polygons: number }> = {};
    for (const [value, label] of [['tidal', 'Tidal'], ['surge', 'Storm surge'], ['rainfall', 'Rainfall ponding'], ['compound', 'Compound']] as const) {
      await component.selectOption(value);
      const legend = (await page.locator(`#extent-legend li[data-layer="${value}"]`).textContent())!;
      expect(legend.startsWith(label)).toBe(true);
      expect(await page.locator('#map').getAttribute('data-extent')).toBe(legend);
      drawn[value] = { legend, polygons: Number(await page.locator('#map').getAttribute('data-extent-polygons')) };
      // Rainfall ponding has no scenario or horizon: the slider is off while it is shown.
      expect(await slider.isDisabled()).toBe(value === 'rainfall');
      if (value !== 'rainfall' && drawn[value]!.polygons > 0) expect(legend).toContain(`${scenario} ${horizon}`);
    }
    const areaOf = (legend: string) => Number(/: ([\d.]+) km²/.exec(legend)?.[1] ?? 0);
    const wet = Object.entries(drawn).filter(([, shown]) => shown.polygons > 0 && areaOf(shown.legend) > 0);
    expect(wet.length).toBeGreaterThan(0);
    expect(drawn.rainfall!.legend).toMatch(/^Rainfall ponding, 100-year 24 h storm \(330\.2 mm\)/);
    await component.selectOption('envelope');
    expect(await page.locator('#map').getAttribute('data-extent')).toBe(secondExtent);
    // The screenshot shows the widest component's extent around the selected asset, with the table.
    await component.selectOption(wet.sort(([, a], [, b]) => areaOf(b.legend) - areaOf(a.legend))[0]![0]);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'analysis');

    // The checklist of the assessment the analysis was linked to, item by item.
    await page.getByRole('button', { name: 'Check the assessment against its evidence' }).click();
    await page.locator('#checklist-result table').first().waitFor();
    expect(await page.locator('#checklist-result tr[data-item]').count()).toBeGreaterThanOrEqual(11);
    await expect(page.locator('#checklist-status').textContent()).resolves.toMatch(/^Not compliant: \d+ items pass, \d+ fail/);

    await page.getByRole('button', { name: 'Generate the package' }).click();
    const pdfLink = page.locator('#deliverable-files a[data-kind="report_pdf"]');
    await pdfLink.waitFor({ timeout: 180_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), pdfLink.click()]);
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    expect(await page.locator('#problem').isHidden()).toBe(true);
    expect(consoleErrors).toEqual([]);
    expect([...hosts]).toEqual(['127.0.0.1']);
    await page.close();
  }, 420_000);
});
