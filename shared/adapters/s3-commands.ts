import type * as S3 from '@aws-sdk/client-s3';
import { commandOnFirstUse } from './sdk-commands';

/** The S3 command classes, `@aws-sdk/client-s3` loaded with the first command built (see sdk-commands.ts). */
const client = () => require('@aws-sdk/client-s3') as typeof S3;

export const DeleteObjectCommand = commandOnFirstUse(client, 'DeleteObjectCommand');
export type DeleteObjectCommand = S3.DeleteObjectCommand;
export const DeleteObjectsCommand = commandOnFirstUse(client, 'DeleteObjectsCommand');
export type DeleteObjectsCommand = S3.DeleteObjectsCommand;
export const GetObjectCommand = commandOnFirstUse(client, 'GetObjectCommand');
export type GetObjectCommand = S3.GetObjectCommand;
export const HeadObjectCommand = commandOnFirstUse(client, 'HeadObjectCommand');
export type HeadObjectCommand = S3.HeadObjectCommand;
export const PutObjectCommand = commandOnFirstUse(client, 'PutObjectCommand');
export type PutObjectCommand = S3.PutObjectCommand;
