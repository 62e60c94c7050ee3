import type * as DocumentClient from '@aws-sdk/lib-dynamodb';

/*
 * The document client's command classes, loaded with the first command a function builds instead
 * of with the function: `@aws-sdk/lib-dynamodb` brings the whole DynamoDB client with it, about
 * 100 ms of CPU at a cold start (the same as `dynamo()` in aws-clients.ts, which creates the client
 * on first use). `new GetCommand(input)` builds the SDK's own command: a constructor that returns
 * an object gives that object to `new`.
 */
export type { BatchGetCommandOutput, QueryCommandInput, QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

type CommandName = 'BatchGetCommand' | 'BatchWriteCommand' | 'DeleteCommand' | 'GetCommand' | 'PutCommand' | 'QueryCommand' | 'UpdateCommand';

const documentClient = () => require('@aws-sdk/lib-dynamodb') as typeof DocumentClient;

function onFirstUse<N extends CommandName>(name: N): (typeof DocumentClient)[N] {
  return function command(input: unknown) {
    return new (documentClient()[name] as new (input: unknown) => object)(input);
  } as unknown as (typeof DocumentClient)[N];
}

export const BatchGetCommand = onFirstUse('BatchGetCommand');
export type BatchGetCommand = DocumentClient.BatchGetCommand;
export const BatchWriteCommand = onFirstUse('BatchWriteCommand');
export type BatchWriteCommand = DocumentClient.BatchWriteCommand;
export const DeleteCommand = onFirstUse('DeleteCommand');
export type DeleteCommand = DocumentClient.DeleteCommand;
export const GetCommand = onFirstUse('GetCommand');
export type GetCommand = DocumentClient.GetCommand;
export const PutCommand = onFirstUse('PutCommand');
export type PutCommand = DocumentClient.PutCommand;
export const QueryCommand = onFirstUse('QueryCommand');
export type QueryCommand = DocumentClient.QueryCommand;
export const UpdateCommand = onFirstUse('UpdateCommand');
export type UpdateCommand = DocumentClient.UpdateCommand;
