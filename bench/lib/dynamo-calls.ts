import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoCalls {
  /** Calls sent (each retry counted), by operation. */
  readonly byOperation: Map<string, number>;
  total(): number;
  reset(): void;
  /** Takes the wrapper off the client. */
  remove(): void;
}

const NAME = 'benchDynamoCalls';

/**
 * Counts every request the client sends (retries included; `only` those whose input it accepts) and, when `latencyMs` is given, holds
 * each one that long before it leaves: the local emulator answers in about a millisecond, DynamoDB
 * in a region takes several, and a write pass that waits on its calls one after another shows it.
 */
export function instrumentDynamo(client: DynamoDBDocumentClient, options: { latencyMs?: number; only?: (input: unknown) => boolean } = {}): DynamoCalls {
  const byOperation = new Map<string, number>();
  const latencyMs = options.latencyMs ?? 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!options.only || options.only((args as { input?: unknown }).input)) {
        const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
        byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
      }
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return next(args);
    },
    // After the retry middleware: one count (and one latency) per request on the wire.
    { step: 'finalizeRequest', priority: 'low', name: NAME, override: true },
  );
  return {
    byOperation,
    total: () => [...byOperation.values()].reduce((sum, n) => sum + n, 0),
    reset: () => byOperation.clear(),
    remove: () => {
      client.middlewareStack.remove(NAME);
    },
  };
}
