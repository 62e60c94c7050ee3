import type * as SQS from '@aws-sdk/client-sqs';
import { commandOnFirstUse } from './sdk-commands';

/** The SQS command classes, `@aws-sdk/client-sqs` loaded with the first command built (see sdk-commands.ts). */
const client = () => require('@aws-sdk/client-sqs') as typeof SQS;

export const SendMessageCommand = commandOnFirstUse(client, 'SendMessageCommand');
export type SendMessageCommand = SQS.SendMessageCommand;
