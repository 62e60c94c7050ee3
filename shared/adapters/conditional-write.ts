/** A DynamoDB condition expression was false: the write did not happen (a lost race, not a fault). */
export function isConditionalCheckFailed(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';
}
