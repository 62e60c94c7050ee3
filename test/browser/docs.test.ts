import type { Browser, Page } from 'playwright-core';
import { ROUTES } from '../../shared/routes';
import { startTestApp } from '../helpers/local-app';
import { launchChromium } from './chromium';

/** The Swagger UI reference in a real (headless) browser: it renders every operation, and "try it" reaches the API. */
describe('API reference in a headless browser', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opens the page, recording every host it contacts and every console error (a CSP violation shows up there). */
  async function openDocs(): Promise<{ page: Page; hosts: Set<string>; consoleErrors: string[] }> {
    const page = await browser.newPage();
    const hosts = new Set<string>();
    const consoleErrors: string[] = [];
    page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor();
    return { page, hosts, consoleErrors };
  }

  it('renders every operation of the route table and loads nothing from any host but 127.0.0.1', async () => {
    const { page, hosts, consoleErrors } = await openDocs();
    expect(await page.title()).toMatch(/^Vulnerability Assessment Compliance API .+ — API reference$/);
    const rendered = await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.trim();
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path');
      return `${method} ${path}`;
    }));
    // Webhook events render as operations too, named by event rather than by path.
    expect(rendered.filter((operation) => operation.includes(' /')).sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    expect(await page.locator('#errors tr[id^="error-"]').count()).toBeGreaterThanOrEqual(12);
    expect(consoleErrors).toEqual([]);
    expect([...hosts]).toEqual(['127.0.0.1']);
    await page.close();
  });

  it('"try it" sends the API key entered under Authorize and shows the API\'s 200', async () => {
    const { page, hosts, consoleErrors } = await openDocs();
    await page.locator('button.authorize').first().click();
    const apiKey = page.locator('.auth-container', { hasText: 'ApiKeyAuth' });
    await apiKey.locator('input').fill(app.keys.free);
    await apiKey.locator('button.authorize').click();
    await page.locator('.modal-ux button.close-modal').click();

    const operation = page.locator('[id$="-listGrantDeadlines"]');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().includes('/api/grants/deadlines')),
      operation.locator('button.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-api-key']).toBe(app.keys.free);
    await expect(operation.locator('.live-responses-table tbody .response-col_status').first().textContent()).resolves.toContain('200');
    expect(await operation.locator('.live-responses-table').textContent()).toContain('days_remaining');
    expect(consoleErrors).toEqual([]);
    expect([...hosts]).toEqual(['127.0.0.1']);
    await page.close();
  });
});
