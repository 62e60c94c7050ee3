import { PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { CredentialRecord } from '../domain/credentials/open-badge';
import type { Completion, Enrollment, TrainingStore } from '../domain/training/enrolment';

/**
 * A user's training records share one partition, `TRAINING#{user_id}`: `ENROLLMENT#{course}` items
 * (one per course, so enrolling twice fails the conditional put; the completion and its credential
 * are written onto the same item in one conditional update) and `PROGRAMME#{id}` credential items.
 * Credential-bearing items carry `gsi1pk = CREDENTIAL#{certification_id}` for the public
 * verification lookup. Revocation is the top-level `revoked_at`/`revocation_reason` pair.
 */
const pkOf = (userId: string) => `TRAINING#${userId}`;
const credentialKey = (id: string) => `CREDENTIAL#${id}`;

function withRevocation(item: Record<string, unknown>): CredentialRecord {
  return {
    ...(item.credential as CredentialRecord),
    revoked_at: typeof item.revoked_at === 'string' ? item.revoked_at : null,
    revocation_reason: typeof item.revocation_reason === 'string' ? item.revocation_reason : null,
  };
}

function toEnrollment(item: Record<string, unknown>): Enrollment {
  return {
    enrollment_id: item.enrollment_id as string,
    user_id: item.user_id as string,
    course_code: item.course_code as string,
    status: item.status as Enrollment['status'],
    enrolled_at: item.enrolled_at as string,
    completed_on: (item.completed_on as string | undefined) ?? null,
    certificate_number: (item.certificate_number as string | undefined) ?? null,
    completed_at: (item.completed_at as string | undefined) ?? null,
    credential: item.credential ? withRevocation(item) : null,
  };
}

export class DynamoTrainingStore implements TrainingStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async userRecords(userId: string) {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pkOf(userId) },
      ConsistentRead: true,
    });
    return {
      enrollments: items.filter((i) => String(i.sk).startsWith('ENROLLMENT#')).map(toEnrollment),
      programmeCredentials: items.filter((i) => String(i.sk).startsWith('PROGRAMME#')).map(withRevocation),
    };
  }

  async createEnrollment(enrollment: Enrollment): Promise<boolean> {
    const { credential: _none, completed_on: _a, completed_at: _b, certificate_number: _c, ...fields } = enrollment;
    return this.conditional(new PutCommand({
      TableName: this.tableName,
      Item: { pk: pkOf(enrollment.user_id), sk: `ENROLLMENT#${enrollment.course_code}`, entity: 'enrollment', ...fields },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async completeEnrollment(userId: string, courseCode: string, completion: Completion): Promise<boolean> {
    return this.conditional(new UpdateCommand({
      TableName: this.tableName,
      Key: { pk: pkOf(userId), sk: `ENROLLMENT#${courseCode}` },
      UpdateExpression: 'SET #status = :completed, completed_on = :on, completed_at = :at, certificate_number = :number, credential = :credential, gsi1pk = :gpk, gsi1sk = :gsk',
      ConditionExpression: 'attribute_exists(pk) AND #status = :enrolled',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':enrolled': 'enrolled',
        ':on': completion.completed_on,
        ':at': completion.completed_at,
        ':number': completion.certificate_number,
        ':credential': completion.credential,
        ':gpk': credentialKey(completion.credential.certification_id),
        ':gsk': 'CREDENTIAL',
      },
    }));
  }

  async addProgrammeCredential(userId: string, programmeId: string, credential: CredentialRecord): Promise<boolean> {
    return this.conditional(new PutCommand({
      TableName: this.tableName,
      Item: { pk: pkOf(userId), sk: `PROGRAMME#${programmeId}`, entity: 'programme_credential', credential, gsi1pk: credentialKey(credential.certification_id), gsi1sk: 'CREDENTIAL' },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  private async findItem(certificationId: string): Promise<Record<string, unknown> | undefined> {
    const { Items } = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :gpk',
      ExpressionAttributeValues: { ':gpk': credentialKey(certificationId) },
      Limit: 1,
    }));
    return Items?.[0];
  }

  async findCredential(certificationId: string): Promise<CredentialRecord | undefined> {
    const item = await this.findItem(certificationId);
    return item?.credential ? withRevocation(item) : undefined;
  }

  async revokeCredential(certificationId: string, at: string, reason: string): Promise<boolean> {
    const item = await this.findItem(certificationId);
    if (!item) return false;
    return this.conditional(new UpdateCommand({
      TableName: this.tableName,
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: 'SET revoked_at = :at, revocation_reason = :reason',
      ConditionExpression: 'attribute_exists(pk) AND gsi1pk = :gpk AND attribute_not_exists(revoked_at)',
      ExpressionAttributeValues: { ':at': at, ':reason': reason, ':gpk': credentialKey(certificationId) },
    }));
  }

  private async conditional(command: PutCommand | UpdateCommand): Promise<boolean> {
    try {
      await dynamo().send(command as PutCommand);
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
