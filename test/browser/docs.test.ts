import type { Browser } from 'playwright-core';
import { ROUTES } from '../../shared/routes';
import { startTestApp } from '../helpers/local-app';
import { launchChromium } from './chromium';

/** The HTML reference in a real (headless) browser: everything renders, nothing leaves loopback. */
describe('API reference in a headless browser', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startTestApp();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('renders every route and loads nothing from any host but 127.0.0.1', async () => {
    const page = await browser.newPage();
    const hosts = new Set<string>();
    const consoleErrors: string[] = [];
    page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });

    const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toMatch(/^Vulnerability Assessment Compliance API .+ — API reference$/);

    for (const route of ROUTES) {
      const operation = page.locator(`#op-${route.id}`);
      await expect(operation.locator('.method').textContent()).resolves.toBe(route.method);
      await expect(operation.locator('.path').first().textContent()).resolves.toBe(route.path);
      expect(await operation.isVisible()).toBe(true);
    }
    expect(await page.locator('#errors tr[id^="error-"]').count()).toBeGreaterThanOrEqual(12);

    // Content-Security-Policy violations (a wrong hash) would show up as console errors.
    expect(consoleErrors).toEqual([]);
    expect([...hosts]).toEqual(['127.0.0.1']);
    await page.close();
  });

  it('filters operations with the inline script', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.baseUrl}/docs`);
    await page.fill('#filter', '/grants/deadlines');
    expect(await page.locator('#op-listGrantDeadlines').isVisible()).toBe(true);
    expect(await page.locator('#op-getHealth').isVisible()).toBe(false);
    expect(await page.locator('#tag-meta').isVisible()).toBe(false);
    await page.fill('#filter', '');
    expect(await page.locator('#op-getHealth').isVisible()).toBe(true);
    await page.close();
  });
});
