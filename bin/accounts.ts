import { randomUUID } from 'node:crypto';
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { hashApiKey, looksLikeApiKey, newApiKey } from '../shared/domain/api-keys';
import { TIER_ORDER, type Tier } from '../shared/routes/types';
import { CliError, openOperatorStorage, runCli } from './operator-storage';

const USAGE = `Manage customer accounts and their API keys.

Usage:
  npm run accounts -- create --name "City of Example" --tier free|pro|enterprise
  npm run accounts -- list
  npm run accounts -- revoke --key vac_...

create prints the new account's API key once: only its sha256 hash is stored.
revoke makes a key answer 403 invalid_api_key (in AWS, within the authorizer cache time).

Where it writes: APP_MODE=aws uses TABLE_NAME (and BUCKET_NAME) with the usual AWS credentials;
otherwise the local data directory DATA_DIR (default .data) — stop \`npm start\` first.
`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  const [command] = args;
  if (!command || args.includes('--help')) {
    process.stdout.write(USAGE);
    return;
  }
  if (!['create', 'list', 'revoke'].includes(command)) throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
  const name = option(args, 'name')?.trim();
  const tier = option(args, 'tier') as Tier | undefined;
  const key = option(args, 'key');
  if (command === 'create' && (!name || !tier || !TIER_ORDER.includes(tier))) {
    throw new CliError(`create needs --name and --tier (one of ${TIER_ORDER.join(', ')}).`, 2);
  }
  if (command === 'revoke' && (!key || !looksLikeApiKey(key))) throw new CliError('revoke needs --key with an API key (vac_…).', 2);

  const storage = await openOperatorStorage();
  try {
    const accounts = new DynamoAccountStore();
    if (command === 'create') {
      const apiKey = newApiKey();
      const account = { account_id: `acct_${randomUUID()}`, name: name!, tier: tier!, created_at: new Date().toISOString() };
      await accounts.createAccount(account, hashApiKey(apiKey));
      process.stdout.write(`Created ${account.account_id} (${account.tier}) in ${storage.description}.\nAPI key (shown once): ${apiKey}\n`);
    } else if (command === 'list') {
      for (const account of await accounts.listAccounts()) {
        process.stdout.write(`${account.account_id}\t${account.tier}\t${account.created_at}\t${account.name}\n`);
      }
    } else {
      if (!(await accounts.revokeKey(hashApiKey(key!), new Date()))) throw new CliError('No such API key.');
      process.stdout.write('Key revoked.\n');
    }
  } finally {
    await storage.close();
  }
}

runCli(main);
