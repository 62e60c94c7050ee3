export { MAX_UPLOAD_BYTES } from '../../shared/application/assets/import-jobs';
