import { floridaDate } from '../../shared/domain/florida-time';
import { ExampleNormalizer, serializeRecording, shorten } from '../../shared/openapi/example-recording';
import { EXAMPLE_TODAY } from '../../shared/openapi/examples/types';

const HOUR = 3_600_000;

/** Two runs of the same two requests: other ids, other ports, other times of day; the same story. */
function run(port: number, ids: { assessment: string; user: string; key: string; digest: string }, sentAt: number) {
  const normalizer = new ExampleNormalizer(`http://127.0.0.1:${port}`);
  const iso = (at: number) => new Date(at).toISOString();
  normalizer.sending('createAssessment', sentAt);
  const created = normalizer.normalize({
    assessment_id: ids.assessment,
    created_date: iso(sentAt + 130),
    upload_expires_at: iso(sentAt + 130 + 5 * 60_000),
    received_on: floridaDate(new Date()),
    user_id: ids.user,
    key: ids.key,
    prefix: ids.key.slice(0, 8),
    manifest_sha256: ids.digest,
    receipt: `VA-12087-2026-${ids.digest.slice(0, 8).toUpperCase()}`,
    next: `http://127.0.0.1:${port}/api/assessments/${ids.assessment}/submit`,
    upload_url: `http://127.0.0.1:${port + 1}/bucket/x.csv?X-Amz-Date=${iso(sentAt)
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '')}&X-Amz-Signature=${ids.digest}`,
    fixed: '2019-05-01T00:00:00.000Z',
  });
  const usageAt = sentAt + 40_000;
  normalizer.sending('getUsage', usageAt);
  const usage = normalizer.normalize({
    window_start: iso(Math.floor(usageAt / HOUR) * HOUR),
    reset_time: iso((Math.floor(usageAt / HOUR) + 1) * HOUR),
    assessment: ids.assessment,
  });
  return { normalizer, answers: [created, usage] };
}

describe('normalising recorded example answers', () => {
  const now = Date.now();
  const first = run(
    41_001,
    {
      assessment: 'va_01M8JNEGEYDY89B3A9PFYJK3VG',
      user: '55d5fe62-7ae2-4909-bf9c-3cbe1bc5a83d',
      key: 'vac_KxyoTuKegiH_OVF1BS-2a7k0i4SPkvBz',
      digest: '72c99a70b58521292c5d95725d254c4065b3e378ade8c737b76848a654bc014a',
    },
    now - 70 * 60_000,
  );
  const second = run(
    52_777,
    {
      assessment: 'va_01M8JNG0NNEEJB16M0FMCAHQK7',
      user: 'd0b0386e-4b5f-4837-9a9f-f5b3741f4aaf',
      key: 'vac_NPexD2DKXi-rzwOlulBFcjPWPks3Xxzh',
      digest: '0b3d833f07692e97577bab5ff7613c894199084dc02e9e3d320f8048d421b111',
    },
    now - 23 * 60_000 - 17_000,
  );

  it('gives two runs with other ids, ports and times the same recording, byte for byte', () => {
    const file = (answers: unknown[]) =>
      serializeRecording(answers.map((body) => ({ operationId: 'x', status: 200, body })));
    expect(file(second.answers)).toBe(file(first.answers));
  });

  it("keeps each value's form and the relations between values", () => {
    const [created, usage] = first.answers as Record<string, string>[];
    expect(created!.assessment_id).toMatch(/^va_\d{26}$/);
    expect(created!.user_id).toMatch(/^\d{8}-\d{4}-\d{4}-\d{4}-\d{12}$/);
    expect(created!.prefix).toBe(created!.key!.slice(0, 8));
    expect(created!.receipt).toBe(`VA-12087-2026-${created!.manifest_sha256!.slice(0, 8)}`);
    expect(created!.next).toBe(`https://api.example.org/api/assessments/${created!.assessment_id}/submit`);
    expect(usage!.assessment).toBe(created!.assessment_id);
    expect(created!.upload_url).toMatch(
      new RegExp(
        `^https://storage\\.example\\.org/bucket/x\\.csv\\?X-Amz-Date=${EXAMPLE_TODAY.replace(/-/g, '')}T140000Z&X-Amz-Signature=\\d{64}$`,
      ),
    );
  });

  it("puts instants on the examples' clock: request n at 14:00 UTC plus n minutes, offsets in whole minutes, hours on the hour", () => {
    const [created, usage] = first.answers as Record<string, string>[];
    expect(created!.created_date).toBe(`${EXAMPLE_TODAY}T14:00:00.000Z`);
    expect(created!.upload_expires_at).toBe(`${EXAMPLE_TODAY}T14:05:00.000Z`);
    expect(usage!.window_start).toBe(`${EXAMPLE_TODAY}T14:00:00.000Z`);
    expect(usage!.reset_time).toBe(`${EXAMPLE_TODAY}T15:00:00.000Z`);
    expect(created!.received_on).toBe(EXAMPLE_TODAY);
    expect(created!.fixed).toBe('2019-05-01T00:00:00.000Z');
  });

  it('sends a request naming a placeholder with the live value', () => {
    const [created] = first.answers as Record<string, string>[];
    expect(
      first.normalizer.toLive({
        params: { assessment_id: created!.assessment_id },
        note: `see ${created!.assessment_id}`,
      }),
    ).toEqual({
      params: { assessment_id: 'va_01M8JNEGEYDY89B3A9PFYJK3VG' },
      note: 'see va_01M8JNEGEYDY89B3A9PFYJK3VG',
    });
  });

  it('names the ids a request gives that no answer issued, with those of the same kind that were', () => {
    const [created] = first.answers as Record<string, string>[];
    expect(first.normalizer.unknownIds({ params: { assessment_id: created!.assessment_id } })).toEqual([]);
    expect(first.normalizer.unknownIds({ params: { assessment_id: 'va_12345678901234567890123456' } })).toEqual([
      `va_12345678901234567890123456 (issued so far: ${created!.assessment_id})`,
    ]);
  });
});

describe('shortening a recorded answer', () => {
  it('cuts long text after 300 characters but keeps a long URL whole, and keeps one item of a list of objects', () => {
    const url = `https://storage.example.org/bucket/${'a'.repeat(400)}.csv?X-Amz-Signature=${'f'.repeat(64)}`;
    const text = 'word '.repeat(100);
    expect(shorten({ upload_url: url, detail: text, rows: [{ a: 1 }, { a: 2 }], codes: [1, 2, 3, 4, 5, 6] })).toEqual({
      upload_url: url,
      detail: `${text.slice(0, 300)}…`,
      rows: [{ a: 1 }],
      codes: [1, 2, 3, 4, 5],
    });
  });
});
