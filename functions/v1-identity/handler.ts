import { createGroupHandler } from '../../shared/http/pipeline';
import { v1IdentityRoutes } from '../../shared/routes/v1-identity';
import { defaultPipelineDeps } from '../../shared/http/deps';
import {
  confirmUser, getProfile, listActivity, login, logout, registerUser, requestPasswordReset, resendConfirmationCode, resetPassword, updateProfile,
} from './users';
import { createAccountKey, listAccountKeys, revokeAccountKey } from './keys';

export const handler = createGroupHandler(v1IdentityRoutes, {
  registerUser, confirmUser, resendConfirmationCode, requestPasswordReset, resetPassword, login, logout, getProfile, updateProfile, listActivity,
  listAccountKeys, createAccountKey, revokeAccountKey,
}, defaultPipelineDeps);
