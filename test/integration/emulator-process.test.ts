import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirectoryInUseError, startEmulators } from '../../local/emulators';
import { startEmulatorsInChild } from '../../local/emulator-process';

/** `npm start`'s emulators in a process of their own: reachable, stopped with the app, refused on a data directory in use. */
describe('the emulators in a process of their own', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-emulator-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('answer DynamoDB calls from another process and end when stopped, without being reported lost', async () => {
    const lost = jest.fn();
    const emulators = await startEmulatorsInChild({ dataDir }, lost);
    expect(emulators.pid).not.toBe(process.pid);
    const client = new DynamoDBClient({ endpoint: emulators.endpoints.dynamodb, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    try {
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      client.destroy();
    }
    await emulators.stop();
    expect(alive(emulators.pid)).toBe(false);
    expect(lost).not.toHaveBeenCalled();
  }, 60_000);

  it('refuse a data directory whose database another process holds, with the error the server explains', async () => {
    const holder = await startEmulators({ dataDir });
    try {
      await expect(startEmulatorsInChild({ dataDir }, jest.fn())).rejects.toBeInstanceOf(DataDirectoryInUseError);
    } finally {
      await holder.stop();
    }
  }, 60_000);

  it('report their process lost when it ends unasked', async () => {
    const lost = jest.fn();
    const emulators = await startEmulatorsInChild({ dataDir }, lost);
    process.kill(emulators.pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(lost).toHaveBeenCalledTimes(1);
    await emulators.stop();
  }, 60_000);
});
