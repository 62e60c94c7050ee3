/** Construct IDs from kebab-case names: `webhook-dispatcher` → `WebhookDispatcher`. */
export function pascalCase(name: string): string {
  return name.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}
