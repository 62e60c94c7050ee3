import './console.css';
import { ApiProblemError, expectData, isProblem, type ApiClient, type components } from '../clients/typescript/src';
import { clientFor, describeFailure, storeKey, storedKey, userClient } from './api';
import { byId, el, replaceChildren } from './dom';
import { EXTENT_LAYERS, extentAt, type AnalysisExtents, type ComponentExtent, type ExtentLayer, type InundationExtent } from './extents';
import { AssetMap, EXPOSURE_CLASSES, EXPOSURE_COLOURS, type ExposureClass, type MappedAsset } from './map';

type Asset = components['schemas']['Asset'];
type ImportReport = NonNullable<components['schemas']['AssetImportReport']>;
type AssetImport = components['schemas']['AssetImport'];
type AccountKey = components['schemas']['AccountKey'];
type Profile = components['schemas']['Profile'];
type Tier = components['schemas']['Usage']['subscription_tier'];

/** A `/v1` sign-in: its client (the access token, kept in memory only), its profile and its active keys. */
interface AccountSession {
  client: ApiClient;
  refreshToken?: string;
  profile: Profile;
  keys: AccountKey[];
}

/** The jurisdictions the picker offers, written next to the bundle from the API's own jurisdiction tables. */
interface JurisdictionChoices {
  counties: { value: string; label: string }[];
  municipalities: { value: string; label: string }[];
}

const JOB_POLL_MS = 1000;
const FLOOD_COMPONENTS = ['tidal', 'surge', 'rainfall', 'compound'] as const;
const JOB_POLL_LIMIT = 600;

const state: {
  api?: ApiClient; account?: AccountSession; jurisdiction?: string; assessmentId?: string; assets: Asset[]; extents: InundationExtent[]; componentExtents: ComponentExtent[]; sort: { key: SortKey; descending: boolean };
} = {
  assets: [],
  extents: [],
  componentExtents: [],
  sort: { key: 'vulnerability_score', descending: true },
};
let assetMap: AssetMap | undefined;

// ---- errors and status -------------------------------------------------------------------------

/** Shows what went wrong in words: the problem's title, its detail and its stable code. */
function showFailure(failure: unknown): void {
  const { title, detail, code, fields } = describeFailure(failure);
  replaceChildren(byId('problem'),
    el('h2', {}, title),
    el('p', {}, detail),
    fields.length > 0 ? el('ul', {}, ...fields.map((field) => el('li', {}, field))) : null,
    code ? el('p', {}, 'Code: ', el('code', { 'data-code': code }, code)) : null);
  byId('problem').hidden = false;
  byId('problem').focus();
}

function clearFailure(): void {
  byId('problem').hidden = true;
  replaceChildren(byId('problem'));
}

function setStatus(id: string, text: string): void {
  byId(id).textContent = text;
}

/**
 * Runs one step of the work, showing its failure instead of throwing it. Its button is busy meanwhile
 * (`aria-busy`: Pico draws a spinner); when the API refuses the value the step sent (a 4xx other than
 * 429), that field is marked `aria-invalid` beside the problem in words.
 */
async function step(button: HTMLButtonElement | null, work: () => Promise<void>, sentField?: HTMLInputElement): Promise<void> {
  clearFailure();
  sentField?.removeAttribute('aria-invalid');
  button?.setAttribute('aria-busy', 'true');
  if (button) button.disabled = true;
  try {
    await work();
  } catch (failure) {
    if (sentField && refusesRequest(failure)) sentField.setAttribute('aria-invalid', 'true');
    showFailure(failure);
  } finally {
    button?.removeAttribute('aria-busy');
    if (button) button.disabled = false;
  }
}

function refusesRequest(failure: unknown): boolean {
  return failure instanceof ApiProblemError && failure.status >= 400 && failure.status < 500 && failure.status !== 429;
}

function api(): ApiClient {
  if (!state.api) throw new Error('Sign in first: with an API key, or with a /v1 account and one of its keys.');
  return state.api;
}

function jurisdiction(): string {
  if (!state.jurisdiction) throw new Error('Pick a jurisdiction first.');
  return state.jurisdiction;
}

// ---- 1. sign in --------------------------------------------------------------------------------

async function signIn(key: string): Promise<void> {
  const candidate = clientFor(key);
  // A key the API refuses answers its problem here, before any screen opens.
  const usage = expectData(await candidate.GET('/account/usage'));
  state.api = candidate;
  storeKey(key);
  setStatus('session-status', `Signed in: ${usage.subscription_tier} tier.`);
  showTierNotice(usage.subscription_tier);
  byId('signed-in').hidden = false;
  byId('sign-in').hidden = true;
}

/**
 * The console's steps are Pro routes: a Free key (as every key of a newly registered `/v1` account
 * is) is refused them with `subscription_required`, so the page says so before the first refusal.
 */
function showTierNotice(tier: Tier): void {
  const notice = byId('tier-notice');
  notice.hidden = tier !== 'free';
  if (tier !== 'free') return;
  const account = state.account?.profile.account_id ?? '<account id>';
  replaceChildren(notice,
    'This key is on the Free tier: the console\'s steps (boundaries, assets, analyses, deliverables) need a Pro or Enterprise key, and the API refuses them with subscription_required. ',
    'A /v1 account and its keys are Free until an operator moves the account to Pro (',
    el('code', {}, `npm run accounts -- tier --account ${account} --tier pro`),
    '); its keys follow it.');
}

async function signOut(): Promise<void> {
  storeKey(null);
  state.api = undefined;
  byId('signed-in').hidden = true;
  byId('new-key').hidden = true;
  byId<HTMLInputElement>('new-key-value').value = '';
  byId('sign-in').hidden = false;
  setStatus('session-status', 'Signed out.');
  await signOutOfAccount();
}

/** `/v1` sign-in with e-mail and password (bearer tokens), then the account's keys. */
async function signInToAccount(email: string, password: string): Promise<void> {
  const tokens = expectData(await userClient().POST('/v1/users/login', { body: { email, password } }));
  const client = userClient(tokens.access_token);
  const profile = expectData(await client.GET('/v1/users/profile'));
  state.account = { client, refreshToken: tokens.refresh_token, profile, keys: [] };
  byId<HTMLInputElement>('account-password').value = '';
  await listAccountKeys();
  byId('account-sign-in').hidden = true;
  byId('account').hidden = false;
}

function account(): AccountSession {
  if (!state.account) throw new Error('Sign in with the account first.');
  return state.account;
}

async function listAccountKeys(): Promise<void> {
  const session = account();
  session.keys = expectData(await session.client.GET('/v1/keys')).data;
  const { email, account_id: accountId, subscription_tier: tier } = session.profile;
  setStatus('account-status', `${email}: account ${accountId}, ${tier} tier, ${session.keys.length} active ${session.keys.length === 1 ? 'key' : 'keys'}.`);
  replaceChildren(byId('account-key'), ...session.keys.map((key) => el('option', { value: key.key_id },
    `${key.name} (${key.prefix}…, created ${key.created_at.slice(0, 10)}, ${key.last_used_at ? `last used ${key.last_used_at.slice(0, 10)}` : 'never used'})`)));
  byId('use-key-form').hidden = session.keys.length === 0;
}

/** A key of the list: its value is never shown again, so the user enters it; its prefix tells a slip before the API is asked. */
async function useAccountKey(keyId: string, value: string): Promise<void> {
  const key = account().keys.find((candidate) => candidate.key_id === keyId);
  if (!key) throw new Error('Pick one of the account\'s keys.');
  if (!value.startsWith(key.prefix)) throw new Error(`That value does not start with ${key.prefix}, as the key "${key.name}" does.`);
  await signIn(value);
  byId<HTMLInputElement>('account-key-value').value = '';
}

async function createAccountKey(name: string): Promise<void> {
  const session = account();
  const created = expectData(await session.client.POST('/v1/keys', { body: { name } }));
  if (!created.key) throw new Error(`The API did not show the value of key ${created.key_id} (an answer replayed); revoke it and create another.`);
  await signIn(created.key);
  byId<HTMLInputElement>('new-key-value').value = created.key;
  byId('new-key').hidden = false;
  await listAccountKeys();
}

/** Ends the `/v1` session: its refresh token and access token stop working. */
async function signOutOfAccount(): Promise<void> {
  const session = state.account;
  state.account = undefined;
  byId('account').hidden = true;
  byId('account-sign-in').hidden = false;
  if (!session?.refreshToken) return;
  const answer = await session.client.POST('/v1/users/logout', { body: { refresh_token: session.refreshToken } });
  if (answer.error !== undefined) throw new ApiProblemError(answer.response.status, isProblem(answer.error) ? answer.error : undefined);
}

// ---- 2. jurisdiction, outline and assets -------------------------------------------------------

async function loadJurisdictionChoices(): Promise<void> {
  const response = await fetch('console/jurisdictions.json');
  const choices = await response.json() as JurisdictionChoices;
  const select = byId<HTMLSelectElement>('jurisdiction');
  select.append(
    el('optgroup', { label: 'Counties' }, ...choices.counties.map((c) => el('option', { value: c.value }, c.label))),
    el('optgroup', { label: 'Municipalities' }, ...choices.municipalities.map((m) => el('option', { value: m.value }, m.label))),
  );
}

async function openJurisdiction(value: string): Promise<void> {
  state.jurisdiction = value;
  const boundary = expectData(await api().GET('/jurisdictions/{jurisdiction}/boundary', { params: { path: { jurisdiction: value } } }));
  setStatus('jurisdiction-status', `${boundary.display_name}: boundary from ${boundary.source.replaceAll('_', ' ')}.`);
  assetMap!.showOutline(boundary.boundary_geojson);
  byId('work').hidden = false;
  await loadAssets();
}

const PAGE_LIMIT = 100;
const MAX_PAGES = 50;

/** The account's assets in the jurisdiction, most vulnerable first (the prioritized list). */
async function loadAssets(): Promise<void> {
  const assets: Asset[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list: components['schemas']['AssetList'] = expectData(await api().GET('/assets', {
      params: { query: { jurisdiction: jurisdiction(), sort: '-vulnerability_score', limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } },
    }));
    assets.push(...list.data);
    cursor = list.next_cursor;
    if (!cursor) break;
  }
  state.assets = assets;
  assetMap!.showAssets(assets.map(mappedAsset));
  renderAssetTable();
  // The list is read most vulnerable first, so a cut-off leaves out the least pressing assets.
  setStatus('asset-list-status', cursor ? `Showing the ${assets.length} most vulnerable assets; export the full list with GET /assets?format=xlsx.` : '');
}

function exposureClassOf(asset: Asset): ExposureClass {
  return asset.exposure?.status ?? 'not_analysed';
}

function mappedAsset(asset: Asset): MappedAsset {
  return { assetId: asset.asset_id, name: asset.name, lat: asset.lat, lon: asset.lon, exposureClass: exposureClassOf(asset) };
}

// ---- 3. import ---------------------------------------------------------------------------------

async function importFile(file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('jurisdiction', jurisdiction());
  setStatus('import-status', `Importing ${file.name}…`);
  const answer = expectData(await api().POST('/assets/import', {
    body: { file: file.name, jurisdiction: jurisdiction() },
    bodySerializer: () => form,
  }));
  // A small file is imported within the request (201, with its report); a larger one is queued (202).
  renderImportReport('report' in answer && answer.report ? answer.report : await waitForImport(answer.import_id));
  await loadAssets();
}

async function waitForImport(importId: string): Promise<ImportReport> {
  for (let poll = 0; poll < JOB_POLL_LIMIT; poll++) {
    const current: AssetImport = expectData(await api().GET('/assets/imports/{import_id}', { params: { path: { import_id: importId } } }));
    if (current.report) return current.report;
    if (current.status === 'failed') throw new Error(`The import failed (${current.error?.code}): ${current.error?.detail}`);
    setStatus('import-status', `Import ${importId}: ${current.status}, ${current.progress.rows_processed} rows processed.`);
    await pause();
  }
  throw new Error(`The import ${importId} has not ended after ${JOB_POLL_LIMIT} polls; read it again later.`);
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
}

function renderImportReport(report: ImportReport): void {
  const { accepted, rejected, errors, warnings } = report.validation;
  setStatus('import-status', `${accepted} rows accepted, ${rejected} rejected.`);
  const rows = [...errors.map((issue) => ({ ...issue, kind: 'rejected' })), ...warnings.map((issue) => ({ ...issue, kind: 'warning' }))]
    .sort((a, b) => a.row - b.row);
  replaceChildren(byId('import-report'), rows.length === 0 ? el('p', {}, 'Every row was accepted.') : el('table', {},
    el('caption', {}, 'Rows the import rejected or warned about'),
    el('thead', {}, el('tr', {}, ...['Row', 'Outcome', 'Field', 'Code', 'Reason'].map((heading) => el('th', { scope: 'col' }, heading)))),
    el('tbody', {}, ...rows.map((row) => el('tr', { 'data-row': row.row, 'data-outcome': row.kind },
      el('td', {}, String(row.row)), el('td', {}, row.kind), el('td', {}, row.field ?? ''), el('td', {}, el('code', {}, row.code)), el('td', {}, row.message)))),
  ));
}

// ---- 4. analysis and the prioritized list ------------------------------------------------------

async function runAnalysis(): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const created = expectData(await api().POST('/assessments', {
    body: { jurisdiction: jurisdiction(), type: 'initial', scope: 'full_jurisdiction', timeline: { start_date: today, target_completion_date: `${today.slice(0, 4)}-12-31` } },
  }));
  state.assessmentId = created.assessment_id;
  setStatus('analysis-status', `Assessment ${created.assessment_id} created; analysis requested…`);
  const started = expectData(await api().POST('/hazards/flood-analysis', {
    body: {
      jurisdiction: jurisdiction(), assessment_id: created.assessment_id, apply_to_assets: true, components: [...FLOOD_COMPONENTS],
      allow_surface_model: byId<HTMLInputElement>('allow-surface-model').checked, gauge_method: 'two_gauge', include_extents: true,
      ...designStorm(),
    },
  })) as { job_id?: string } & AnalysisExtents;
  // A small area is analysed within the request; a larger one answers a job whose result is the same answer.
  const answer = started.job_id ? await waitForJob(started.job_id) : started;
  setStatus('analysis-status', 'Analysis done: exposure written onto the assets.');
  showExtents(answer);
  await loadAssets();
  byId('deliverables').hidden = false;
  byId('checklist').hidden = false;
}

/** The storm of the form, when a depth is given; the API checks the rest and answers its problem. */
function designStorm(): { rainfall?: { depth_in: number; duration_h: number; return_period_years: number; source: string } } {
  const depth = byId<HTMLInputElement>('storm-depth').value;
  if (depth === '') return {};
  return {
    rainfall: {
      depth_in: Number(depth),
      duration_h: Number(byId<HTMLInputElement>('storm-duration').value),
      return_period_years: Number(byId<HTMLInputElement>('storm-return-period').value),
      source: byId<HTMLInputElement>('storm-source').value.trim(),
    },
  };
}

/** The slider walks the analysis's scenario × horizon extents; the selector picks the envelope or one component's. */
function showExtents(answer: AnalysisExtents): void {
  state.extents = answer.inundation_extents ?? [];
  state.componentExtents = answer.component_extents ?? [];
  const slider = byId<HTMLInputElement>('extent-slider');
  slider.max = String(Math.max(0, state.extents.length - 1));
  slider.value = '0';
  byId('extents').hidden = state.extents.length === 0;
  selectExtent();
}

function selectExtent(): void {
  const layer = byId<HTMLSelectElement>('extent-component').value as ExtentLayer;
  const envelope = state.extents[Number(byId<HTMLInputElement>('extent-slider').value)];
  // Rainfall ponding is one extent per storm, whatever the sea level: the slider does not move it.
  const slider = byId<HTMLInputElement>('extent-slider');
  slider.disabled = layer === 'rainfall';
  byId('extent-label').textContent = layer === 'rainfall'
    ? 'Rainfall ponding does not depend on the scenario or horizon.'
    : envelope ? `${envelope.properties.scenario.replaceAll('_', ' ')}, ${envelope.properties.planning_horizon}` : 'none';
  const shown = extentAt(layer, envelope, state.componentExtents);
  assetMap!.showExtent(shown.feature, shown.description, shown.colour);
  const legend = byId('extent-legend');
  legend.hidden = false;
  replaceChildren(legend, el('li', { 'data-layer': layer },
    el('span', { class: 'swatch square', style: `background:${shown.colour}`, 'aria-hidden': 'true' }), shown.description));
}

// ---- 6. the checklist --------------------------------------------------------------------------

async function checkAssessment(): Promise<void> {
  const assessmentId = state.assessmentId;
  if (!assessmentId) throw new Error('Run an analysis first: the checklist is that of its assessment.');
  const result = expectData(await api().POST('/compliance/validate', { body: { assessment_id: assessmentId } }));
  const status = result.dep_checklist_status;
  setStatus('checklist-status', `${result.compliant ? 'Compliant' : 'Not compliant'}: ${status.passed} items pass, ${status.failed} fail, ${status.conditional} conditional; ${status.contradictions.length} contradictions.`);
  replaceChildren(byId('checklist-result'),
    el('table', {},
      el('caption', {}, 'Checklist items'),
      el('thead', {}, el('tr', {}, ...['Item', 'Requirement', 'Status', 'Reason'].map((heading) => el('th', { scope: 'col' }, heading)))),
      el('tbody', {}, ...status.items.map((item) => el('tr', { 'data-item': item.item, 'data-status': item.status },
        el('td', {}, item.item), el('td', {}, item.title), el('td', {}, item.status), el('td', {}, item.reason))))),
    status.contradictions.length === 0 ? el('p', {}, 'No statement of the methodology is contradicted by the evidence.') : el('table', {},
      el('caption', {}, 'Contradictions: what the methodology claims against what the API holds or ran'),
      el('thead', {}, el('tr', {}, ...['Item', 'Field', 'Claimed', 'Found'].map((heading) => el('th', { scope: 'col' }, heading)))),
      el('tbody', {}, ...status.contradictions.map((contradiction) => el('tr', { 'data-contradiction': contradiction.item },
        el('td', {}, contradiction.item), el('td', {}, el('code', {}, contradiction.field)), el('td', {}, contradiction.claimed), el('td', {}, contradiction.found))))));
}

async function waitForJob(jobId: string): Promise<AnalysisExtents> {
  for (let poll = 0; poll < JOB_POLL_LIMIT; poll++) {
    const job = expectData(await api().GET('/hazards/jobs/{job_id}', { params: { path: { job_id: jobId } } }));
    setStatus('analysis-status', `Job ${jobId}: ${job.status}.`);
    if (job.status === 'succeeded') return (job.result ?? {}) as AnalysisExtents;
    if (job.status === 'failed') throw new Error(`Job ${jobId} failed: ${JSON.stringify(job.error ?? null)}`);
    await pause();
  }
  throw new Error(`Job ${jobId} has not ended after ${JOB_POLL_LIMIT} polls; read it again later.`);
}

type SortKey = 'name' | 'category' | 'exposure' | 'first_exposed_year' | 'vulnerability_score';

const COLUMNS: { key: SortKey; heading: string; value: (asset: Asset) => string | number | null }[] = [
  { key: 'name', heading: 'Asset', value: (asset) => asset.name },
  { key: 'category', heading: 'Category', value: (asset) => asset.category },
  { key: 'exposure', heading: 'Exposure', value: (asset) => exposureClassOf(asset) },
  { key: 'first_exposed_year', heading: 'First exposed', value: (asset) => asset.exposure?.first_exposed_year ?? null },
  { key: 'vulnerability_score', heading: 'Vulnerability', value: (asset) => asset.vulnerability?.vulnerability_score ?? null },
];

/** Nulls last whatever the direction: an unassessed asset is never the top priority. */
function compareValues(a: string | number | null, b: string | number | null, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
  return descending ? -order : order;
}

function renderAssetTable(): void {
  const column = COLUMNS.find((candidate) => candidate.key === state.sort.key)!;
  const sorted = [...state.assets].sort((a, b) => compareValues(column.value(a), column.value(b), state.sort.descending));
  const headers = COLUMNS.map((candidate) => {
    const active = candidate.key === state.sort.key;
    const button = el('button', { type: 'button', 'data-sort': candidate.key }, candidate.heading);
    button.addEventListener('click', () => {
      state.sort = { key: candidate.key, descending: active ? !state.sort.descending : candidate.key === 'vulnerability_score' };
      renderAssetTable();
    });
    return el('th', { scope: 'col', 'aria-sort': active ? (state.sort.descending ? 'descending' : 'ascending') : 'none' }, button);
  });
  const rows = sorted.map((asset) => {
    const cells = COLUMNS.map((candidate) => el('td', {}, String(candidate.value(asset) ?? '—')));
    const link = el('button', { type: 'button', class: 'link', 'data-asset': asset.asset_id }, asset.name);
    link.addEventListener('click', () => assetMap!.zoomTo(asset.asset_id));
    cells[0] = el('td', {}, link);
    cells[2]!.prepend(el('span', { class: 'swatch', style: `background:${EXPOSURE_COLOURS[exposureClassOf(asset)]}`, 'aria-hidden': 'true' }));
    return el('tr', { 'data-asset-id': asset.asset_id }, ...cells);
  });
  replaceChildren(byId('asset-table'), state.assets.length === 0 ? el('p', {}, 'The account holds no assets here yet: import a file.') : el('table', {},
    el('caption', {}, `Prioritized assets (${state.assets.length}); choose a name to find it on the map`),
    el('thead', {}, el('tr', {}, ...headers)),
    el('tbody', {}, ...rows)));
}

// ---- 5. deliverables ---------------------------------------------------------------------------

async function generateDeliverables(): Promise<void> {
  const assessmentId = state.assessmentId;
  if (!assessmentId) throw new Error('Run an analysis first: the deliverables are those of its assessment.');
  let deliverable = expectData(await api().POST('/assessments/{assessment_id}/deliverables', { params: { path: { assessment_id: assessmentId } } }));
  for (let poll = 0; poll < JOB_POLL_LIMIT && deliverable.status !== 'succeeded' && deliverable.status !== 'failed'; poll++) {
    setStatus('deliverables-status', `Package ${deliverable.deliverable_id}: ${deliverable.status}.`);
    await pause();
    deliverable = expectData(await api().GET('/assessments/{assessment_id}/deliverables/{deliverable_id}', {
      params: { path: { assessment_id: assessmentId, deliverable_id: deliverable.deliverable_id } },
    }));
  }
  if (deliverable.status !== 'succeeded') throw new Error(`The package ${deliverable.deliverable_id} is ${deliverable.status}.`);
  setStatus('deliverables-status', `Package ${deliverable.deliverable_id} ready; links valid 15 minutes.`);
  replaceChildren(byId('deliverable-files'), ...deliverable.files.map((file) => el('li', {},
    el('a', { href: file.url, download: file.name, 'data-kind': file.kind }, file.name), ` (${file.kind}, ${Math.round(file.bytes / 1024)} KB)`)));
}

// ---- wiring ------------------------------------------------------------------------------------

function renderLegend(): void {
  replaceChildren(byId('legend'), ...EXPOSURE_CLASSES.map((exposureClass) => el('li', {},
    el('span', { class: 'swatch', style: `background:${EXPOSURE_COLOURS[exposureClass]}`, 'aria-hidden': 'true' }), exposureClass.replaceAll('_', ' '))));
}

function start(): void {
  assetMap = new AssetMap(byId('map'));
  renderLegend();
  byId<HTMLFormElement>('key-sign-in').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = byId<HTMLInputElement>('api-key').value.trim();
    void step(byId<HTMLButtonElement>('sign-in-button'), () => signIn(key), byId<HTMLInputElement>('api-key'));
  });
  byId<HTMLFormElement>('account-sign-in').addEventListener('submit', (event) => {
    event.preventDefault();
    const email = byId<HTMLInputElement>('account-email').value.trim();
    const password = byId<HTMLInputElement>('account-password');
    void step(byId<HTMLButtonElement>('account-sign-in-button'), () => signInToAccount(email, password.value), password);
  });
  byId<HTMLFormElement>('use-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = byId<HTMLInputElement>('account-key-value').value.trim();
    void step(byId<HTMLButtonElement>('use-key-button'), () => useAccountKey(byId<HTMLSelectElement>('account-key').value, value), byId<HTMLInputElement>('account-key-value'));
  });
  byId<HTMLFormElement>('create-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void step(byId<HTMLButtonElement>('create-key-button'), () => createAccountKey(byId<HTMLInputElement>('new-key-name').value.trim()));
  });
  byId('account-sign-out').addEventListener('click', () => void step(byId<HTMLButtonElement>('account-sign-out'), signOutOfAccount));
  byId('sign-out').addEventListener('click', () => void step(byId<HTMLButtonElement>('sign-out'), signOut));
  byId<HTMLFormElement>('jurisdiction-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void step(byId<HTMLButtonElement>('open-jurisdiction'), () => openJurisdiction(byId<HTMLSelectElement>('jurisdiction').value));
  });
  byId<HTMLFormElement>('import-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const file = byId<HTMLInputElement>('inventory-file').files?.[0];
    void step(byId<HTMLButtonElement>('import-button'), async () => {
      if (!file) throw new Error('Choose a CSV file to import.');
      await importFile(file);
    });
  });
  byId('run-analysis').addEventListener('click', () => void step(byId<HTMLButtonElement>('run-analysis'), runAnalysis));
  byId<HTMLInputElement>('extent-slider').addEventListener('input', selectExtent);
  byId('extent-component').append(...EXTENT_LAYERS.map((layer) => el('option', { value: layer.value }, layer.label)));
  byId('extent-component').addEventListener('change', selectExtent);
  byId('check-assessment').addEventListener('click', () => void step(byId<HTMLButtonElement>('check-assessment'), checkAssessment));
  byId('generate-deliverables').addEventListener('click', () => void step(byId<HTMLButtonElement>('generate-deliverables'), generateDeliverables));

  void step(null, async () => {
    await loadJurisdictionChoices();
    const key = storedKey();
    if (key) await signIn(key);
  });
}

start();
