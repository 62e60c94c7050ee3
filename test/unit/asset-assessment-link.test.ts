import { DomainError } from '../../shared/domain/errors';
import { requireImportAssessment } from '../../shared/domain/assets/import-link';

/** An import names the assessment it is evidence for: this account's, for the import's jurisdiction. */
describe('import linked to an assessment', () => {
  const monroe = { assessment_id: 'va_01HZZZZZZZZZZZZZZZZZZZZZZZ', jurisdiction: { id: 'county:12087', type: 'county', display_name: 'Monroe County', county_fips: '12087' } };
  const store = { get: async (accountId: string, id: string) => (accountId === 'acct_a' && id === monroe.assessment_id ? monroe as never : undefined) };

  it('accepts the account\'s assessment of the same jurisdiction', async () => {
    await expect(requireImportAssessment(store, 'acct_a', monroe.assessment_id, 'county:12087')).resolves.toBeUndefined();
  });

  it.each([
    ['an unknown assessment', 'acct_a', 'va_00000000000000000000000000', 'county:12087', 'Unknown assessment'],
    ['another account\'s assessment', 'acct_b', monroe.assessment_id, 'county:12087', 'Unknown assessment'],
    ['an assessment of another jurisdiction', 'acct_a', monroe.assessment_id, 'county:12086', 'The assessment is for another jurisdiction'],
  ])('refuses %s as invalid input on assessment_id', async (_case, account, id, jurisdiction, message) => {
    const error = await requireImportAssessment(store, account, id, jurisdiction).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'invalid_input', issues: [{ field: 'assessment_id', in: 'body', message }] });
  });
});
