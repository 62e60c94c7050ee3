import { DynamoAccountStore } from '../shared/adapters/account-store';
import { DynamoUserStore } from '../shared/adapters/user-store';
import { accountUsageKeys, USAGE_PLAN_NAME_VARIABLES } from '../shared/adapters/usage-keys';
import { changeTier, hashApiKey, looksLikeApiKey, openAccountWithKey } from '../shared/domain/api-keys';
import { TIER_ORDER, type Tier } from '../shared/domain/tiers';
import { CliError, openOperatorStorage, option, runCli } from './operator-storage';

const USAGE = `Manage customer accounts and their API keys.

Usage:
  npm run accounts -- create --name "City of Example" --tier free|pro|enterprise
  npm run accounts -- list
  npm run accounts -- revoke --key vac_...
  npm run accounts -- tier --account acct_... --tier free|pro|enterprise
  npm run accounts -- link --email user@example.org --account acct_...

create prints the new account's API key once: only its sha256 hash is stored.
revoke makes a key answer 403 invalid_api_key (in AWS, within the authorizer cache time).
tier moves an account, with every key it holds, to another tier (a registered user's own
account starts on free).
link moves a registered /v1 user to an existing account: their keys and hourly limit are then
that account's.

Every account has its own API Gateway key in its tier's usage plan, so the plan's throttle
applies to it alone: create attaches it, tier moves it to the new tier's plan.

Where it writes: APP_MODE=aws uses TABLE_NAME (and BUCKET_NAME) and the usage plans named in
${Object.values(USAGE_PLAN_NAME_VARIABLES).join(', ')} (stack outputs) with the usual AWS
credentials; otherwise the local data directory DATA_DIR (default .data) — stop \`npm start\` first.
`;

async function main(args: string[]): Promise<void> {
  const [command] = args;
  if (!command || args.includes('--help')) {
    process.stdout.write(USAGE);
    return;
  }
  if (!['create', 'list', 'revoke', 'tier', 'link'].includes(command)) throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
  const name = option(args, 'name')?.trim();
  const tier = option(args, 'tier') as Tier | undefined;
  const key = option(args, 'key');
  const accountId = option(args, 'account');
  const email = option(args, 'email')?.trim().toLowerCase();
  if (command === 'tier' && (!accountId || !tier || !TIER_ORDER.includes(tier))) {
    throw new CliError(`tier needs --account and --tier (one of ${TIER_ORDER.join(', ')}).`, 2);
  }
  if (command === 'link' && (!accountId || !email)) throw new CliError('link needs --email of a registered user and --account.', 2);
  if (command === 'create' && (!name || !tier || !TIER_ORDER.includes(tier))) {
    throw new CliError(`create needs --name and --tier (one of ${TIER_ORDER.join(', ')}).`, 2);
  }
  if (command === 'revoke' && (!key || !looksLikeApiKey(key))) throw new CliError('revoke needs --key with an API key (vac_…).', 2);

  const usageKeys = accountUsageKeys();
  if (process.env.APP_MODE === 'aws' && !usageKeys && (command === 'create' || command === 'tier')) {
    throw new CliError(`${command} needs the usage plan names in ${Object.values(USAGE_PLAN_NAME_VARIABLES).join(', ')} (the stack's outputs).`, 2);
  }
  const storage = await openOperatorStorage();
  try {
    const accounts = new DynamoAccountStore();
    if (command === 'create') {
      const { account, key: apiKey } = await openAccountWithKey(accounts, name!, tier!, new Date(), usageKeys);
      process.stdout.write(`Created ${account.account_id} (${account.tier}) in ${storage.description}.\nAPI key (shown once): ${apiKey}\n`);
    } else if (command === 'list') {
      for (const account of await accounts.listAccounts()) {
        process.stdout.write(`${account.account_id}\t${account.tier}\t${account.created_at}\t${account.name}\n`);
      }
    } else if (command === 'tier') {
      if (!(await changeTier(accounts, accountId!, tier!, usageKeys))) throw new CliError(`No account ${accountId}.`);
      process.stdout.write(`${accountId} is now on the ${tier} tier.\n`);
    } else if (command === 'link') {
      const users = new DynamoUserStore();
      const user = await users.findByEmail(email!);
      if (!user) throw new CliError(`No registered user ${email}.`);
      if (!(await accounts.getAccount(accountId!))) throw new CliError(`No account ${accountId}.`);
      await users.linkAccount(user.user_id, accountId!, new Date());
      process.stdout.write(`${email} now belongs to ${accountId} (was ${user.account_id}).\n`);
    } else {
      if (!(await accounts.revokeKey(hashApiKey(key!), new Date()))) throw new CliError('No such API key.');
      process.stdout.write('Key revoked.\n');
    }
  } finally {
    await storage.close();
  }
}

runCli(main);
