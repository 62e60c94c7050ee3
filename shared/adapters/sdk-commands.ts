/**
 * A command class of an AWS SDK package whose package is loaded when the first command is built,
 * not when the function loads: each client package costs about 100 ms of CPU at a cold start, and
 * the clients themselves are created on first use (aws-clients.ts). `new Command(input)` builds the
 * SDK's own command (a constructor that returns an object gives that object to `new`), so signers
 * and `instanceof` in the SDK see the real class.
 */
export function commandOnFirstUse<M, N extends keyof M>(load: () => M, name: N): M[N] {
  return function command(input: unknown) {
    return new (load()[name] as unknown as new (input: unknown) => object)(input);
  } as unknown as M[N];
}
