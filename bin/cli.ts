/** An expected failure of a command: its message is the whole story. Exit 2 for a wrong invocation. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** The value after `--name` in a command's arguments. */
export function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/** Runs a command's main, printing expected failures without a stack. */
export function runCli(main: (args: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(error.exitCode);
    }
    process.stderr.write(`Failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
