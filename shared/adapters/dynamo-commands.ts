import type * as DocumentClient from '@aws-sdk/lib-dynamodb';
import { commandOnFirstUse } from './sdk-commands';

/*
 * The document client's command classes, loaded with the first command a function builds (see
 * sdk-commands.ts): `@aws-sdk/lib-dynamodb` brings the whole DynamoDB client with it.
 */
export type { BatchGetCommandOutput, QueryCommandInput, QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

const documentClient = () => require('@aws-sdk/lib-dynamodb') as typeof DocumentClient;

export const BatchGetCommand = commandOnFirstUse(documentClient, 'BatchGetCommand');
export type BatchGetCommand = DocumentClient.BatchGetCommand;
export const BatchWriteCommand = commandOnFirstUse(documentClient, 'BatchWriteCommand');
export type BatchWriteCommand = DocumentClient.BatchWriteCommand;
export const DeleteCommand = commandOnFirstUse(documentClient, 'DeleteCommand');
export type DeleteCommand = DocumentClient.DeleteCommand;
export const GetCommand = commandOnFirstUse(documentClient, 'GetCommand');
export type GetCommand = DocumentClient.GetCommand;
export const PutCommand = commandOnFirstUse(documentClient, 'PutCommand');
export type PutCommand = DocumentClient.PutCommand;
export const QueryCommand = commandOnFirstUse(documentClient, 'QueryCommand');
export type QueryCommand = DocumentClient.QueryCommand;
export const UpdateCommand = commandOnFirstUse(documentClient, 'UpdateCommand');
export type UpdateCommand = DocumentClient.UpdateCommand;
